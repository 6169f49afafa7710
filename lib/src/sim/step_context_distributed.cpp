// StepContext for the multi-server stories: commands the network lost, WAIT, and what each
// client believes it holds (the overlap the Redlock and failover lessons are about).
#include <algorithm>

#include "lockscope/sim/step_context.h"
#include "redlock_rules.h"
#include "wait_for_replicas.h"

namespace lockscope::sim {

void StepContext::sendUnanswered(const RedisCommand& command, VirtualMs timeout) {
    const RedisNode& node = world_.node(command.node);
    int e = emit(EventKind::Command, self_.lane(), "no reply");
    recording_.events[e].command = node.name + "> " + command.text();
    recording_.events[e].shown = command.guideText() + " on " + node.name;
    recording_.events[e].key = command.key;
    recording_.events[e].lockOp = command.lockOp();
    recording_.events[e].reply = "(timeout)";
    facts_.clear();
    beat(e, "No reply from " + node.name + " within " + formatDuration(timeout) +
                ": the network between " + self_.name() + " and " + node.name +
                " drops it, so it counts as a failure.");
}

void StepContext::waitForReplicas(int node, int numReplicas, VirtualMs timeout) {
    self_.wake.reset();  // blocked until the WAIT returns
    startWait(world_, recording_, self_.name(), node, numReplicas, timeout);
}

std::int64_t StepContext::waitReply() {
    const PendingWait* wait = nullptr;
    for (auto it = world_.waits.rbegin(); it != world_.waits.rend() && !wait; ++it)
        if (it->actor == self_.name() && it->done) wait = &*it;
    if (!wait) return 0;
    if (static_cast<std::size_t>(wait->node) >= live_.redis.size()) return wait->reply;
    // Live: a real WAIT, sent once the model's WAIT returned, so that the replication gates
    // have let through exactly what the model delivered. The server's count is the answer.
    // A WAIT the model saw acknowledged gets at least a real second: a scaled 50 ms can be
    // shorter than a busy machine's loopback round trip, and WAIT returns at the ack anyway.
    VirtualMs timeout = wait->deadline - wait->sentAt;
    if (wait->reply >= wait->numReplicas && live_.realMsPerVirtualSecond > 0)
        timeout = std::max<VirtualMs>(timeout, kSecond * 1000 / live_.realMsPerVirtualSecond);
    RedisCommand c = RedisCommand::wait(wait->numReplicas, timeout);
    c.node = wait->node;
    std::int64_t real = live_.redis[wait->node]->execute(c, now()).integer;
    if (real != wait->reply && live_.divergences)
        live_.divergences->push_back(formatVirtualTime(now()) + " " + self_.name() + " " +
                                     c.text() + ": server " + std::to_string(real) + ", model " +
                                     std::to_string(wait->reply));
    return real;
}

namespace {

// What let a new holder get a key another client still believes it holds, judged from the
// earlier belief and the faults that happened since it began.
OverlapCause causeOf(const World& world, const Belief& earlier) {
    OverlapCause cause;
    cause.holder = earlier.actor;
    if (earlier.leaseEnds && *earlier.leaseEnds <= world.now) {
        cause.kind = OverlapCause::Kind::LeaseExpired;
        cause.explanation =
            earlier.actor + "'s lease ran out at " + formatVirtualTime(*earlier.leaseEnds) +
            " while " + earlier.actor +
            " still relies on it: its key is gone wherever it was set, replicated or "
            "not, and nothing told " +
            earlier.actor + ".";
        return cause;
    }
    for (const auto& f : world.faults.failovers) {
        if (!f.announced || f.at < earlier.since || earlier.node == world.primary) continue;
        cause.kind = OverlapCause::Kind::Failover;
        const std::string& promoted = world.node(f.promote).name;
        cause.explanation = "the failover at " + formatVirtualTime(f.at) + " promoted " + promoted +
                            ", which never received " + earlier.actor +
                            "'s key: replication is asynchronous, and the primary had "
                            "acknowledged it before any replica had it.";
        return cause;
    }
    for (const auto& j : world.faults.clockJumps) {
        if (!j.announced || j.at < earlier.since) continue;
        cause.kind = OverlapCause::Kind::ClockJump;
        cause.explanation = world.node(j.node).name + "'s clock jumped " + formatDuration(j.jump) +
                            " forward at " + formatVirtualTime(j.at) + " and expired " +
                            earlier.actor +
                            "'s key there early, so a majority of nodes no longer had it.";
        return cause;
    }
    // A jump before the earlier belief began still explains it when it expired the newer
    // client's key: a client that counts its replies late (a pause while acquiring) counts
    // an OK from a node that has since given the key to another.
    for (const auto& j : world.faults.clockJumps) {
        if (!j.announced) continue;
        cause.kind = OverlapCause::Kind::ClockJump;
        cause.explanation = world.node(j.node).name + "'s clock jumped " + formatDuration(j.jump) +
                            " forward at " + formatVirtualTime(j.at) +
                            " and expired a key there early: " + world.node(j.node).name +
                            " granted the lock to " + earlier.actor +
                            " while another client still counted its earlier OK.";
        return cause;
    }
    cause.explanation = "a majority of nodes no longer had " + earlier.actor + "'s key.";
    return cause;
}

}  // namespace

std::optional<OverlapCause> StepContext::whyAlsoHeld(const std::string& resource) const {
    const Belief* earliest = nullptr;
    for (const auto& b : world_.beliefs)
        if (b.current && b.resource == resource && b.actor != self_.name() &&
            (!earliest || b.since < earliest->since))
            earliest = &b;
    if (!earliest) return std::nullopt;
    return causeOf(world_, *earliest);
}

void StepContext::believeHeld(const std::string& resource, std::optional<VirtualMs> leaseEnds,
                              int node) {
    std::optional<OverlapCause> cause = whyAlsoHeld(resource);
    std::string others;
    for (const auto& b : world_.beliefs)
        if (b.current && b.resource == resource && b.actor != self_.name())
            others += (others.empty() ? "" : " and ") + b.actor;
    Belief mine{self_.name(), resource, now(), true, leaseEnds, node};
    world_.beliefs.push_back(mine);
    if (!cause || recording_.beats.empty()) return;
    ++world_.outcome.overlappingHolds;
    switch (cause->kind) {
        case OverlapCause::Kind::LeaseExpired:
            ++world_.outcome.overlapsAfterLeaseExpired;
            break;
        case OverlapCause::Kind::Failover:
            ++world_.outcome.overlapsAfterFailover;
            break;
        case OverlapCause::Kind::ClockJump:
            ++world_.outcome.overlapsAfterClockJump;
            break;
        case OverlapCause::Kind::Other:
            break;
    }
    VirtualMs since = now();
    for (const auto& b : world_.beliefs)
        if (b.current && b.resource == resource && b.actor != self_.name())
            since = std::min(since, b.since);
    const std::string text = others + " also believes it holds " + resource + " (since " +
                             formatVirtualTime(since) + "): two clients hold it at once.";
    facts_ += " " + text;
    appendToNarration(text);
}

void StepContext::stopBelieving(const std::string& resource) {
    for (auto& b : world_.beliefs)
        if (b.current && b.actor == self_.name() && b.resource == resource) b.current = false;
}

void StepContext::renewBelief(const std::string& resource, VirtualMs leaseEnds) {
    for (auto& b : world_.beliefs)
        if (b.current && b.actor == self_.name() && b.resource == resource) b.leaseEnds = leaseEnds;
}

void StepContext::lockAttemptFailed(const std::string& why) {
    ++world_.outcome.lockAttemptsFailed;
    note(why);
}

void StepContext::lockAttemptFailed(const std::vector<Message>& why) {
    ++world_.outcome.lockAttemptsFailed;
    note(why);
}

void StepContext::lockAttemptRefused() {
    ++world_.outcome.lockAttemptsFailed;
}

bool holdsLockNow(const World& world, const std::string& actor) {
    int held = 0;
    for (const auto& node : world.nodes)
        if (const Holding* h = node.currentHolding(world.lockKey); h && h->holder == actor) ++held;
    return held >= redlockMajority(world.nodes.size());
}

}  // namespace lockscope::sim
