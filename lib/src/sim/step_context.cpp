#include "lockscope/sim/step_context.h"

#include "lockscope/script.h"

namespace lockscope::sim {

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
    b.reply = e.reply;
    b.narration = std::move(narration);
    b.eventIndex = eventIndex;
    e.beat = b.index;
    facts_ = b.narration;
    recording_.beats.push_back(std::move(b));
    return recording_.beats.back().index;
}

void StepContext::narrate(const std::string& text) {
    if (recording_.beats.empty()) return;
    recording_.beats.back().narration = facts_.empty() ? text : text + " " + facts_;
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

int StepContext::recordCommand(const RedisCommand& command, const std::string& reply) {
    const RedisNode& node = world_.node(command.node);
    int e = emit(EventKind::Command, self_.lane(), {});
    // With several servers the transcript says which one, like redis-cli's prompt.
    recording_.events[e].command =
        (world_.nodes.size() > 1 ? node.name + "> " : std::string()) + command.text();
    recording_.events[e].reply = reply;
    if (const Script* s = command.script()) recording_.events[e].script = s->source();
    return e;
}

CommandReply StepContext::send(const RedisCommand& command) {
    CommandReply reply = execute(command);
    int e = recordCommand(command, reply.summary());
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
    if (!world_.lockKey.empty() && command.key == world_.lockKey) updateOwnership(command, reply);
    beat(e, facts_);
    replicate(command);
    return reply;
}

void StepContext::sendReplyTooLate(const RedisCommand& command, VirtualMs replyAfter,
                                   VirtualMs timeout) {
    CommandReply reply = execute(command);
    int e = recordCommand(command, "(timeout)");
    recording_.events[e].detail =
        "ran it; reply " + reply.summary() + " after " + formatDuration(replyAfter);
    facts_.clear();
    if (!world_.lockKey.empty() && command.key == world_.lockKey) updateOwnership(command, reply);
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

void StepContext::lostLock(int node, const std::string& how) {
    recordLockLost(world_, recording_, node, how);
    emit(EventKind::KeyChanged, world_.node(node).keyLane, world_.lockKey + " " + how);
}

void StepContext::updateOwnership(const RedisCommand& c, const CommandReply& r) {
    const std::string& me = self_.name();
    const std::string& key = world_.lockKey;
    RedisNode& node = world_.node(c.node);
    const LaneId keyLane = node.keyLane;
    const Holding* held = node.currentHolding();
    // With several servers the facts say which one ("on B").
    const std::string on = world_.nodes.size() > 1 ? " on " + node.name : std::string();
    auto holderText = [&](const Holding& h) {
        return h.holder + " holds it (" + describePttl(pttl(c.node)) + ")";
    };
    bool acquired = (c.op == RedisOp::Set && r.isOk()) ||
                    (c.op == RedisOp::SetNx && r.integer == 1) ||
                    (c.op == RedisOp::AcquireScript && r.integer > 0);
    bool refused = (c.op == RedisOp::Set && r.isNil()) ||
                   (c.op == RedisOp::SetNx && r.integer == 0) ||
                   (c.op == RedisOp::AcquireScript && r.integer == 0);
    bool deleted = (c.op == RedisOp::Del || c.op == RedisOp::ReleaseScript) && r.integer == 1;
    if (acquired) {
        if (held) lostLock(c.node, "overwritten by " + me);
        Holding h;
        h.holder = me;
        h.token = c.value;
        h.fence = c.op == RedisOp::AcquireScript ? r.integer : 0;
        h.since = now();
        h.hasTtl = c.ttlMs() >= 0;
        node.holdings.push_back(h);
        std::string label = me + (h.fence ? " (fence " + std::to_string(h.fence) + ")" : "");
        emit(EventKind::KeyChanged, keyLane,
             key + " = " + c.value + (h.fence ? ", fence " + std::to_string(h.fence) : ""));
        openInterval(world_, {keyLane, IntervalKind::Ownership, now(), 0, label, c.value, h.fence,
                              false, c.node});
        openInterval(world_, {self_.lane(), IntervalKind::Ownership, now(), 0, label, c.value,
                              h.fence, false, c.node});
        if (!h.hasTtl) {
            openInterval(world_, {keyLane, IntervalKind::NoTtl, now(), 0, "no TTL", c.value, 0,
                                  false, c.node});
            facts_ = me + " now holds " + key + on + " with no TTL yet.";
        } else {
            facts_ = me + " now holds " + key + on + " until " +
                     formatVirtualTime(now() + c.ttlMs()) +
                     (h.fence ? ", fencing token " + std::to_string(h.fence) : "") + ".";
        }
    } else if (refused) {
        facts_ = "Refused: " + (held ? holderText(*held) : std::string("the key exists")) + ".";
    } else if (deleted) {
        std::string victim = held ? held->holder : "";
        if (!held || victim == me) {
            facts_ = me + " deleted its own lock" + on + ".";
        } else {
            const InstanceRun* run = world_.run(victim);
            if (run && run->state == RunState::Crashed) {
                ++world_.outcome.orphansReleased;
                facts_ = "Removed the orphan lock of crashed " + victim + ".";
            } else {
                ++world_.outcome.foreignDeletions;
                const Holding* mine = node.lastHoldingOf(me);
                facts_ =
                    "This deleted " + victim + "'s lock (taken at " +
                    formatVirtualTime(held->since) + "), not " + me + "'s: a foreign deletion." +
                    (mine && !mine->current ? " " + me + "'s own lock " + describeLoss(*mine) + "."
                                            : "");
            }
        }
        lostLock(c.node, "deleted by " + me);
    } else if ((c.op == RedisOp::Del) && r.integer == 0) {
        facts_ = "Nothing to delete: " + key + " is already gone.";
    } else if ((c.op == RedisOp::Expire || c.op == RedisOp::PExpire) && r.integer == 1) {
        if (Holding* h = node.currentHolding()) h->hasTtl = true;
        closeInterval(world_, recording_, keyLane, IntervalKind::NoTtl, now(), c.node);
        facts_ = key + " now expires at " + formatVirtualTime(now() + c.ttlMs()) + ".";
    } else if (c.op == RedisOp::ExtendScript && r.integer == 1) {
        facts_ = "TTL reset to " + formatDuration(c.ttl) + " (until " +
                 formatVirtualTime(now() + c.ttl) + ").";
    } else if ((c.op == RedisOp::ExtendScript || c.op == RedisOp::ReleaseScript) &&
               r.integer == 0) {
        facts_ = "The lock is no longer " + me +
                 "'s: " + (held ? holderText(*held) : "no one holds it") + ". Nothing was changed.";
    }
}

void StepContext::runStarted(std::int64_t fence) {
    // A duplicate is caused by a lost lock (another run is still working, its lock gone) or
    // by the job having finished already (no lock is held: nothing can stop a later run).
    std::string lostBy, doneBy;
    for (const auto& run : world_.runs) {
        if (run.actor == self_.name()) continue;
        if (run.state == RunState::Running) {
            const Holding* h = world_.lastHoldingOf(run.actor);
            lostBy += (lostBy.empty() ? "" : "; ") + run.actor + "'s job is still running" +
                      (h && !h->current ? ", but its lock " + describeLoss(*h) : std::string());
        } else if (run.state == RunState::Completed) {
            doneBy += (doneBy.empty() ? "" : ", ") + run.actor;
        }
    }
    const bool duplicate = !lostBy.empty() || !doneBy.empty();
    world_.runs.push_back({self_.name(), now(), RunState::Running, fence});
    ++world_.outcome.runsStarted;
    if (duplicate) ++world_.outcome.duplicateRuns;
    if (!lostBy.empty())
        ++world_.outcome.duplicatesAfterLockLost;
    else if (duplicate)
        ++world_.outcome.duplicatesAfterJobDone;
    emit(EventKind::RunStarted, self_.lane(),
         "run #" + std::to_string(world_.outcome.runsStarted) + (duplicate ? " (duplicate)" : ""));
    openInterval(world_, {self_.lane(), IntervalKind::JobRun, now(), 0, "job", "", fence, false});
    if (duplicate && !recording_.beats.empty()) {
        std::string text = " The job starts again: run #" +
                           std::to_string(world_.outcome.runsStarted) + " tonight, a duplicate. ";
        text += !lostBy.empty()
                    ? "Its cause is a lost lock: " + lostBy + "."
                    : "The job already ran tonight (" + doneBy +
                          " finished it) and no one holds the lock, so nothing stops " +
                          self_.name() +
                          ": a lock guards a running job, not a finished one. Only a record "
                          "keyed by the date (the fix's email key) can stop this duplicate.";
        facts_ += text;
        recording_.beats.back().narration += text;
    }
}

void StepContext::runRefused(const std::string& why) {
    ++world_.outcome.runsRefused;
    emit(EventKind::RunRefused, self_.lane(), why);
}

void StepContext::endRun(RunState state) {
    if (InstanceRun* run = world_.run(self_.name())) run->state = state;
    closeInterval(world_, recording_, self_.lane(), IntervalKind::JobRun, now());
    closeInterval(world_, recording_, self_.lane(), IntervalKind::LeaseLapsed, now());
}

void StepContext::runCompleted() {
    ++world_.outcome.runsCompleted;
    endRun(RunState::Completed);
    emit(EventKind::RunCompleted, self_.lane(), "job done");
}

void StepContext::runAborted(const std::string& why) {
    ++world_.outcome.runsAborted;
    endRun(RunState::Aborted);
    emit(EventKind::RunAborted, self_.lane(), why);
}

}  // namespace lockscope::sim
