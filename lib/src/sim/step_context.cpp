#include "lockscope/sim/step_context.h"

#include "lockscope/script.h"

namespace lockscope::sim {

namespace {

// What a command that ran did to its key's value: the explorer's read-then-write rule reads it.
KeyAccess keyAccess(const RedisCommand& c, const CommandReply& r) {
    switch (c.op) {
        case RedisOp::Get:
            return KeyAccess::Read;
        case RedisOp::Set:
            return r.isOk() ? KeyAccess::Write : KeyAccess::None;
        case RedisOp::Incr:
            return r.kind == CommandReply::Kind::Integer ? KeyAccess::Write : KeyAccess::None;
        case RedisOp::SetNx:
        case RedisOp::Del:
        case RedisOp::ReleaseScript:
            return r.integer == 1 ? KeyAccess::Write : KeyAccess::None;
        case RedisOp::AcquireScript:
            return r.integer > 0 ? KeyAccess::Write : KeyAccess::None;
        default:
            return KeyAccess::None;  // a TTL change, PTTL, WAIT: the value stays
    }
}

}  // namespace

std::string describePttl(std::int64_t pttl) {
    if (pttl == -2) return "the key no longer exists (PTTL -2)";
    if (pttl == -1) return "no TTL (PTTL -1): nothing will ever remove it";
    return formatDuration(pttl) + " left";
}

StepContext::StepContext(World& world, Recording& recording, const LiveBackends& live, Actor& self)
    : world_(world), recording_(recording), live_(live), self_(self) {}

void StepContext::wakeAfter(VirtualMs delay) {
    self_.wake = now() + delay;
    self_.wakeSeq = ++world_.seq;
    self_.workFrom.reset();
}

void StepContext::workFor(VirtualMs duration) {
    wakeAfter(duration);
    self_.workFrom = now();
}

void StepContext::stop() {
    self_.wake.reset();
}

int StepContext::emit(EventKind kind, LaneId lane, std::string detail) {
    TimelineEvent e;
    e.index = static_cast<int>(recording_.events.size());
    e.time = now();
    e.lane = lane;
    e.kind = kind;
    e.actor = self_.name();
    e.detail = std::move(detail);
    e.step = world_.steps;
    recording_.events.push_back(std::move(e));
    return recording_.events.back().index;
}

int StepContext::beat(int eventIndex, std::string narration) {
    TimelineEvent& e = recording_.events[eventIndex];
    Beat b;
    b.index = static_cast<int>(recording_.beats.size());
    b.time = e.time;
    b.lane = e.lane;
    b.actor = e.actor;
    b.command = e.command;
    b.shown = e.shown.empty() ? e.command : e.shown;
    b.reply = e.reply;
    b.narration = std::move(narration);
    b.step = e.step;
    b.eventIndex = eventIndex;
    e.beat = b.index;
    facts_ = b.narration;
    noteParts_.clear();
    recording_.beats.push_back(std::move(b));
    return recording_.beats.back().index;
}

void StepContext::narrate(const std::string& text) {
    if (recording_.beats.empty()) return;
    recording_.beats.back().narration = facts_.empty() ? text : text + " " + facts_;
}

void StepContext::narrate(const Message& message) {
    narrate(std::vector<Message>{message});
}

void StepContext::narrate(const std::vector<Message>& messages) {
    if (recording_.beats.empty()) return;
    Beat& b = recording_.beats.back();
    b.narrationParts = messages;
    // The note's messages, unless facts were added to its text since.
    if (!noteParts_.empty() && renderEnglish(noteParts_) == facts_)
        b.narrationParts.insert(b.narrationParts.end(), noteParts_.begin(), noteParts_.end());
    else if (!facts_.empty())
        b.narrationParts.push_back(Message::literal(facts_));
    b.narration = renderEnglish(b.narrationParts);
}

void StepContext::appendToNarration(const std::string& sentence) {
    Beat& b = recording_.beats.back();
    b.narration += " " + sentence;
    if (!b.narrationParts.empty()) b.narrationParts.push_back(Message::literal(sentence));
}

void StepContext::predict(std::string question, std::string answer) {
    if (recording_.beats.empty()) return;
    recording_.beats.back().predict = Prompt{std::move(question), std::move(answer)};
}

void StepContext::predictAt(int beat, std::string question, std::string answer) {
    if (beat < 0 || beat >= static_cast<int>(recording_.beats.size())) return;
    recording_.beats[beat].predict = Prompt{std::move(question), std::move(answer)};
}

void StepContext::note(const std::string& narration) {
    beat(emit(EventKind::Note, self_.lane(), narration), narration);
}

void StepContext::note(const Message& narration) {
    note(std::vector<Message>{narration});
}

void StepContext::note(const std::vector<Message>& narration) {
    const std::string english = renderEnglish(narration);
    beat(emit(EventKind::Note, self_.lane(), english), english);
    recording_.beats.back().narrationParts = narration;
    noteParts_ = narration;
}

void StepContext::print(const std::string& line) {
    world_.outcome.printed.push_back(line);
    int e = emit(EventKind::Printed, self_.lane(), line);
    recording_.events[e].command = "print";
    recording_.events[e].reply = line;
    beat(e, "The script prints \"" + line + "\".");
}

std::int64_t StepContext::pttl(int node) const {
    return world_.node(node).redis.pttl(world_.lockKey, now());
}

CommandReply StepContext::execute(const RedisCommand& command) {
    RedisNode& node = world_.node(command.node);
    if (static_cast<std::size_t>(command.node) >= live_.redis.size())
        return node.redis.execute(command, now());
    CommandReply reply = live_.redis[command.node]->execute(command, now());
    CommandReply shadow = node.redis.execute(command, now());
    if (!(shadow == reply) && live_.divergences)
        live_.divergences->push_back(formatVirtualTime(now()) + " " + self_.name() + " " +
                                     command.text() + ": server " + reply.summary() + ", model " +
                                     shadow.summary());
    return reply;
}

int StepContext::recordCommand(const RedisCommand& command, const CommandReply& ran,
                               const std::string& reply) {
    const RedisNode& node = world_.node(command.node);
    int e = emit(EventKind::Command, self_.lane(), {});
    // With several servers the transcript says which one, like redis-cli's prompt.
    recording_.events[e].command =
        (world_.nodes.size() > 1 ? node.name + "> " : std::string()) + command.text();
    recording_.events[e].shown =
        command.guideText() + (world_.nodes.size() > 1 ? " on " + node.name : std::string());
    recording_.events[e].key = command.key;
    recording_.events[e].lockOp = command.lockOp();
    recording_.events[e].reply = reply;
    recording_.events[e].access = keyAccess(command, ran);
    recording_.events[e].ttlMs = command.ttlMs();
    if (const Script* s = command.script()) recording_.events[e].script = s->source();
    return e;
}

CommandReply StepContext::send(const RedisCommand& command) {
    CommandReply reply = execute(command);
    int e = recordCommand(command, reply, reply.summary());
    if (reply.isNoScript() && command.script() && !command.sendSource) {
        // The client's EVALSHA → EVAL fallback, as register_script does it.
        facts_.clear();
        beat(e, world_.node(command.node).name +
                    " has not cached this script (a fresh server, a restart, or a promoted "
                    "replica: the script cache is not replicated). The client falls back to "
                    "EVAL with the source, which runs it and caches it.");
        RedisCommand eval = command;
        eval.sendSource = true;
        return send(eval);
    }
    facts_.clear();
    if (world_.recordsHolders(command.key)) updateOwnership(command, reply);
    beat(e, facts_);
    replicate(command);
    return reply;
}

void StepContext::sendReplyTooLate(const RedisCommand& command, VirtualMs replyAfter,
                                   VirtualMs timeout) {
    CommandReply reply = execute(command);
    int e = recordCommand(command, reply, "(timeout)");
    recording_.events[e].detail =
        "ran it; reply " + reply.summary() + " after " + formatDuration(replyAfter);
    facts_.clear();
    if (world_.recordsHolders(command.key)) updateOwnership(command, reply);
    const std::string& node = world_.node(command.node).name;
    beat(e, node + " runs it (" + reply.summary() + "), but the reply takes " +
                formatDuration(replyAfter) + ", past the " + formatDuration(timeout) +
                " timeout: " + self_.name() + " has stopped waiting and counts it as a failure." +
                (facts_.empty() ? "" : " " + facts_));
    replicate(command);
}

void StepContext::replicate(const RedisCommand& c) {
    if (c.op == RedisOp::Get || c.op == RedisOp::Pttl || c.op == RedisOp::Wait) return;
    const ModelRedis& source = world_.node(c.node).redis;
    for (const auto& link : world_.replication) {
        if (link.from != c.node) continue;
        for (const std::string* key : {&c.key, &c.fenceKey})
            if (!key->empty())
                world_.inFlight.push_back({now() + link.lag, link.to, c.node, *key,
                                           source.peek(*key, now()), ++world_.seq});
    }
}

}  // namespace lockscope::sim
