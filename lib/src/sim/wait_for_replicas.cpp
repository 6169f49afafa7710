#include "wait_for_replicas.h"

#include <algorithm>

#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

namespace {

// The WAIT returns: its reply beat sits at the return time on the client's lane, and the
// client wakes to read it.
void complete(World& world, Recording& recording, PendingWait& wait) {
    wait.done = true;
    wait.reply = static_cast<std::int64_t>(wait.acked.size());
    if (wait.reply < wait.numReplicas) ++world.outcome.waitsShort;
    Actor* actor = world.actor(wait.actor);
    if (!actor) return;
    RedisCommand c = RedisCommand::wait(wait.numReplicas, wait.deadline - wait.sentAt);
    c.node = wait.node;
    RedisNode& node = world.node(wait.node);
    int e = recordEvent(world, recording, EventKind::Command, actor->lane(), wait.actor,
                        "WAIT returned " + std::to_string(wait.reply));
    recording.events[e].command = node.name + "> " + c.text();
    recording.events[e].shown = c.guideText() + " on " + node.name;
    recording.events[e].reply = CommandReply::number(wait.reply).summary();
    const VirtualMs took = world.now - wait.sentAt;
    std::string text = "WAIT returns after " + formatDuration(took) + ": " +
                       std::to_string(wait.reply) + " of the " +
                       std::to_string(wait.awaiting.size()) + " replica(s) " + node.name +
                       " had when it was sent acknowledged its writes";
    if (wait.reply >= wait.numReplicas)
        text +=
            ". At least one replica has the lock now; that says nothing of a failover that "
            "promotes another replica.";
    else
        text += took >= wait.deadline - wait.sentAt
                    ? ", the timeout ran out first. The write may never reach a replica."
                    : ".";
    recordBeat(recording, e, text);
    actor->wake = world.now;
    actor->wakeSeq = ++world.seq;
}

void settle(World& world, Recording& recording, PendingWait& wait) {
    if (!wait.done && static_cast<int>(wait.acked.size()) >= wait.numReplicas)
        complete(world, recording, wait);
}

}  // namespace

void startWait(World& world, Recording& recording, const std::string& actor, int node,
               int numReplicas, VirtualMs timeout) {
    PendingWait wait;
    wait.actor = actor;
    wait.node = node;
    wait.numReplicas = numReplicas;
    wait.sentAt = world.now;
    wait.deadline = world.now + timeout;
    for (const auto& link : world.replication) {
        if (link.from != node) continue;
        std::uint64_t last = 0;
        for (const auto& w : world.inFlight)
            if (w.from == node && w.to == link.to) last = std::max(last, w.seq);
        if (last == 0)
            wait.acked.emplace_back(link.to);  // nothing in flight: it is already up to date
        else
            wait.awaiting.emplace_back(link.to, last);
    }
    // Every replica of the node, acknowledged already (seq 0: nothing to wait for) or not.
    for (int replica : wait.acked) wait.awaiting.emplace_back(replica, 0);
    world.waits.push_back(wait);
    settle(world, recording, world.waits.back());
}

void acknowledgeDelivery(World& world, Recording& recording, const InFlightWrite& write) {
    for (auto& wait : world.waits) {
        if (wait.done || wait.node != write.from) continue;
        for (const auto& [replica, seq] : wait.awaiting)
            if (replica == write.to && seq == write.seq) wait.acked.push_back(replica);
        settle(world, recording, wait);
    }
}

std::optional<VirtualMs> nextWaitDeadline(const World& world) {
    std::optional<VirtualMs> earliest;
    for (const auto& wait : world.waits)
        if (!wait.done && (!earliest || wait.deadline < *earliest)) earliest = wait.deadline;
    return earliest;
}

void expireWaits(World& world, Recording& recording) {
    for (auto& wait : world.waits)
        if (!wait.done && wait.deadline <= world.now) complete(world, recording, wait);
}

}  // namespace lockscope::sim
