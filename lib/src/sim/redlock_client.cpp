#include "redlock_client.h"

#include <algorithm>

#include "redlock_rules.h"

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
    bool timedOut = false;
    for (int n = 0; n < nodes; ++n) {
        RedisCommand set =
            RedisCommand::set(config_.key, token_, true, TtlUnit::Millis, config_.ttlMs);
        set.node = n;
        if (!reachable(n)) {
            context.sendUnanswered(set, config_.nodeTimeout);
            timedOut = true;
        } else if (context.send(set).isOk()) {
            granted_.push_back(context.world().node(n).name);
        }
        if (n == 0)
            context.narrate(name() + " starts Redlock: the same SET NX PX goes to all " +
                            std::to_string(nodes) + " nodes at once, each with a " +
                            formatDuration(config_.nodeTimeout) + " timeout.");
    }
    // The requests run in parallel: the answer is complete when the slowest is in.
    elapsed_ = timedOut ? config_.nodeTimeout : std::min(config_.latency, config_.nodeTimeout);
    phase_ = Phase::Decide;
    context.wakeAfter(elapsed_);
}

void RedlockClient::decide(StepContext& context) {
    const auto nodes = context.world().nodes.size();
    const int majority = redlockMajority(nodes);
    const std::int64_t validity = redlockValidityMicros(config_.ttlMs, elapsed_);
    const bool holds = static_cast<int>(granted_.size()) >= majority && validity > 0;
    std::string facts = name() + " has OK from " + joined(granted_) + ": " +
                        std::to_string(granted_.size()) + " of " + std::to_string(nodes) +
                        " (a majority is " + std::to_string(majority) + ") in " +
                        formatDuration(elapsed_) + ". Validity = " + formatDuration(config_.ttlMs) +
                        " − " + formatDuration(elapsed_) + " − drift " +
                        millis(redlockDriftMicros(config_.ttlMs)) + " = " + millis(validity) + ".";
    if (!holds) {
        context.lockAttemptFailed(facts + " No lock: " + name() + " releases on every node.");
        releaseAll(context);
        context.stop();
        return;
    }
    std::string believer;
    for (const auto& b : context.world().beliefs)
        if (b.current && b.resource == config_.key) believer = b.actor;
    context.note(facts + " " + name() + " holds the lock until " +
                 formatVirtualTime(started_ + validity / 1000) + " by its own clock.");
    if (!believer.empty())
        context.predict(believer + " never released the lock and still believes it holds it. " +
                            name() + " counted its OKs. Does " + name() + " hold the lock too?",
                        "Yes: a majority of nodes no longer had " + believer +
                            "'s key, so both clients now believe they hold the lock.");
    context.believeHeld(config_.key);
    if (config_.fencing) {
        fence_ = context.readFence() + 1;
        context.narrate(
            "Redlock gives no fencing token: each node would count its own INCR, and no "
            "majority agrees on one number. " +
            name() +
            " takes its token from the resource instead: it reads the report row's version and "
            "will write version + 1 = " +
            std::to_string(fence_) +
            " under WHERE fence < ?. (A consensus service such as ZooKeeper or etcd could hand "
            "out the token too.)");
    }
    phase_ = Phase::Write;
    context.wakeAfter(config_.work);
}

void RedlockClient::write(StepContext& context) {
    const bool stale = !holdsLockNow(context.world(), name());
    const std::string body = "report by " + name();
    bool accepted = true;
    if (config_.fencing)
        accepted = context.fencedSave(body, fence_);
    else
        context.plainSave(body);
    if (stale)
        context.predict(name() + " is sure it holds the lock and writes its report" +
                            (config_.fencing ? " with token " + std::to_string(fence_) : "") +
                            ". Does the store take the write?",
                        accepted ? "Yes: nothing checks, and the stale write lands."
                                 : "No: a newer token already wrote; the fence rejects it.");
    context.narrate(name() + " writes its report.");
    phase_ = Phase::Release;
    context.wakeAfter(0);
}

void RedlockClient::releaseAll(StepContext& context) {
    const int nodes = static_cast<int>(context.world().nodes.size());
    for (int n = 0; n < nodes; ++n) {
        if (!reachable(n)) continue;
        RedisCommand release = RedisCommand::release(config_.key, token_);
        release.node = n;
        context.send(release);
    }
}

}  // namespace lockscope::sim
