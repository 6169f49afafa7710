#include "redlock_client.h"

#include <algorithm>
#include <optional>

#include "sim/redlock_rules.h"

namespace lockscope::sim {

namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size(); ++i)
        s += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return s.empty() ? "none" : s;
}

std::string millis(std::int64_t micros) {
    return formatDuration(micros / 1000);
}

}  // namespace

RedlockClient::RedlockClient(std::string name, LaneId lane, RedlockClientConfig config,
                             std::string token)
    : ClonableActor(std::move(name), lane), config_(std::move(config)), token_(std::move(token)) {}

bool RedlockClient::reachable(int node) const {
    return std::find(config_.unreachable.begin(), config_.unreachable.end(), node) ==
           config_.unreachable.end();
}

void RedlockClient::step(StepContext& context) {
    switch (phase_) {
        case Phase::Acquire:
            acquire(context);
            break;
        case Phase::Decide:
            decide(context);
            break;
        case Phase::Send:
            phase_ = Phase::Write;
            if (config_.writeDelay > 0) {
                context.note(Message{"sim.redlock.write-delayed",
                                     {name(), formatDuration(config_.writeDelay)}});
                context.wakeAfter(config_.writeDelay);
                break;
            }
            write(context);
            break;
        case Phase::Write:
            write(context);
            break;
        case Phase::Release:
            releaseAll(context);
            context.stopBelieving(config_.key);
            context.stop();
            break;
    }
}

void RedlockClient::acquire(StepContext& context) {
    started_ = context.now();
    granted_.clear();
    const int nodes = static_cast<int>(context.world().nodes.size());
    // A reply slower than the node timeout is a failure, even though the node ran the SET.
    const bool tooSlow = config_.latency > config_.nodeTimeout;
    bool timedOut = false;
    for (int n = 0; n < nodes; ++n) {
        RedisCommand set =
            RedisCommand::set(config_.key, token_, true, TtlUnit::Millis, config_.ttlMs);
        set.node = n;
        if (!reachable(n)) {
            context.sendUnanswered(set, config_.nodeTimeout);
            timedOut = true;
        } else if (tooSlow) {
            context.sendReplyTooLate(set, config_.latency, config_.nodeTimeout);
            timedOut = true;
        } else if (context.send(set).isOk()) {
            granted_.push_back(context.world().node(n).name);
        }
        if (n == 0)
            context.narrate(Message{"sim.redlock.starts",
                                    {name(), formatVirtualTime(started_), std::to_string(nodes),
                                     formatDuration(config_.nodeTimeout)}});
    }
    // The requests run in parallel: the answer is complete when the slowest is in.
    phase_ = Phase::Decide;
    context.wakeAfter(timedOut ? config_.nodeTimeout : config_.latency);
}

void RedlockClient::decide(StepContext& context) {
    const auto nodes = context.world().nodes.size();
    const int majority = redlockMajority(nodes);
    // The spec's elapsed time is now minus the start of the attempt: a pause between the
    // replies and this check counts, and can leave no validity at all.
    const VirtualMs elapsed = context.now() - started_;
    const std::int64_t validity = redlockValidityMicros(config_.ttlMs, elapsed);
    const bool holds = static_cast<int>(granted_.size()) >= majority && validity > 0;
    // The validity note by message ids, so a class can read it in its own language.
    const Message oks{
        "sim.redlock.oks",
        {name(), joined(granted_), std::to_string(granted_.size()), std::to_string(nodes),
         std::to_string(majority), formatDuration(elapsed), formatVirtualTime(started_)}};
    const Message validityNote{"sim.redlock.validity",
                               {formatDuration(config_.ttlMs), formatDuration(elapsed),
                                millis(redlockDriftMicros(config_.ttlMs)), millis(validity)}};
    if (!holds) {
        context.lockAttemptFailed(
            {oks, validityNote,
             Message{validity <= 0 ? "sim.redlock.no-validity" : "sim.redlock.no-majority",
                     {name()}}});
        releaseAll(context);
        context.stop();
        return;
    }
    std::optional<OverlapCause> overlap = context.whyAlsoHeld(config_.key);
    context.note({oks, validityNote,
                  // The validity is what is left from now: the elapsed time is already in it.
                  Message{"sim.redlock.holds-until",
                          {name(), formatVirtualTime(context.now() + validity / 1000)}}});
    if (overlap)
        context.predict(overlap->holder +
                            " never released the lock and still believes it "
                            "holds it. " +
                            name() + " counted its OKs. Does " + name() + " hold the lock too?",
                        "Yes: " + overlap->explanation +
                            " Both clients now believe they hold "
                            "the lock.");
    context.believeHeld(config_.key, started_ + config_.ttlMs);
    takeFence(context);
    phase_ = Phase::Send;
    context.workFor(config_.work);
}

void RedlockClient::takeFence(StepContext& context) {
    switch (config_.fencing) {
        case RedlockFencing::None:
            return;
        case RedlockFencing::Token:
            fence_ = context.issueFencingToken();
            context.narrate(Message{"sim.redlock.counter-token", {name(), std::to_string(fence_)}});
            return;
        case RedlockFencing::VersionRead:
            return;  // read when it writes: readVersionFence()
    }
}

// The trap reads the row's version just before its write and writes version + 1: a number
// that always clears WHERE fence < ?, whoever writes and however late.
void RedlockClient::readVersionFence(StepContext& context) {
    fence_ = context.readFence() + 1;
    context.narrate(Message{"sim.redlock.version-trap", {name(), std::to_string(fence_)}});
}

void RedlockClient::write(StepContext& context) {
    if (config_.fencing == RedlockFencing::VersionRead) readVersionFence(context);
    const bool stale = !holdsLockNow(context.world(), name());
    const std::string body = "report by " + name();
    const bool fenced = config_.fencing != RedlockFencing::None;
    const std::int64_t written = context.world().store.lastFence(context.world().reportResource);
    const OutcomeSummary before = context.world().outcome;
    bool accepted = true;
    if (fenced)
        accepted = context.fencedSave(body, fence_);
    else
        context.plainSave(body);
    // How the rules judged the write (write_order.h), for the predict question's answer.
    const OutcomeSummary& after = context.world().outcome;
    const bool tie = after.tiedWritesRejected > before.tiedWritesRejected;
    const bool staleAccepted = after.staleWritesAccepted > before.staleWritesAccepted;
    if (stale || !accepted)
        context.predict(
            name() + " is sure it holds the lock and writes its report" +
                (fenced ? " with token " + std::to_string(fence_) : "") +
                ". Does the store take the write?",
            !fenced ? (staleAccepted ? "Yes: nothing checks, and the stale write lands over the "
                                       "newer holder's report."
                                     : "Yes: nothing checks. No newer holder has written yet, so "
                                       "this late write overwrites nothing newer.")
            : accepted && staleAccepted
                ? "Yes: its token " + std::to_string(fence_) + " is above the last one written (" +
                      std::to_string(written) +
                      "), although a newer holder wrote: the number does not follow the order "
                      "the lock changed hands."
            : accepted ? "Yes: no higher token has written yet (the last was " +
                             std::to_string(written) + ")."
            : tie ? "No, but only because the newer holder wrote the same number " +
                        std::to_string(written) + " first. Had " + name() +
                        " written first, its stale write would have landed and the holder's been "
                        "refused: a token read from the resource is the trap, not a fence."
            : stale ? "No: a higher token (" + std::to_string(written) +
                          ") already wrote; the fence rejects it."
                    : "No, although " + name() +
                          " holds the lock now: a write with the same number "
                          "got there first. A token read from the resource is "
                          "the trap, not a fence.");
    context.narrate(Message{"sim.redlock.writes", {name()}});
    phase_ = Phase::Release;
    context.wakeAfter(0);
}

// The spec releases on every node, reachable or not: the unreachable ones are attempts the
// network drops, shown as such.
void RedlockClient::releaseAll(StepContext& context) {
    const int nodes = static_cast<int>(context.world().nodes.size());
    for (int n = 0; n < nodes; ++n) {
        RedisCommand release = RedisCommand::release(config_.key, token_);
        release.node = n;
        if (reachable(n))
            context.send(release);
        else
            context.sendUnanswered(release, config_.nodeTimeout);
    }
}

}  // namespace lockscope::sim
