#include "replication.h"

#include <algorithm>

#include "lockscope/sim/step_context.h"
#include "wait_for_replicas.h"

namespace lockscope::sim {

namespace {

// Who set this value on any node: a replica's lock belongs to whoever took it upstream.
std::string holderOf(const World& world, const std::string& value) {
    for (const auto& node : world.nodes)
        for (auto it = node.holdings.rbegin(); it != node.holdings.rend(); ++it)
            if (it->token == value) return it->holder;
    return "?";
}

}  // namespace

void deliverReplicatedWrite(World& world, Recording& recording, std::size_t index) {
    InFlightWrite write = world.inFlight[index];
    world.inFlight.erase(world.inFlight.begin() + static_cast<std::ptrdiff_t>(index));
    RedisNode& node = world.node(write.to);
    node.redis.apply(write.key, write.entry);
    recordEvent(world, recording, EventKind::Replicated, node.keyLane, node.name,
                write.key + (write.entry ? " = " + write.entry->value : " deleted"));
    acknowledgeDelivery(world, recording, write);
    if (!world.recordsHolders(write.key)) return;
    const std::string& key = write.key;
    Holding* current = node.currentHolding(key);
    if (!write.entry) {
        if (current) recordLockLost(world, recording, write.to, key, "deleted by replication");
        return;
    }
    if (current && current->token == write.entry->value) {
        if (write.entry->deadline) current->hasTtl = true;
        return;
    }
    if (current) recordLockLost(world, recording, write.to, key, "overwritten by replication");
    Holding h;
    h.key = key;
    h.holder = holderOf(world, write.entry->value);
    h.token = write.entry->value;
    h.since = world.now;
    h.hasTtl = write.entry->deadline.has_value();
    node.holdings.push_back(h);
    // Another recorded key (a seat's hold) has no key lane of its own: told, not drawn.
    if (key != world.lockKey) {
        recordBeat(
            recording,
            recordEvent(world, recording, EventKind::KeyChanged, node.keyLane, node.name,
                        key + " = " + h.token + " (replicated)"),
            node.name + " receives " + h.holder + "'s hold on " + key + " from its primary.");
        return;
    }
    Interval owned{node.keyLane, IntervalKind::Ownership, world.now, 0, h.holder, h.token, 0, false,
                   write.to};
    owned.holder = h.holder;
    owned.key = key;
    openInterval(world, owned);
    recordBeat(recording,
               recordEvent(world, recording, EventKind::KeyChanged, node.keyLane, node.name,
                           world.lockKey + " = " + h.token + " (replicated)"),
               node.name + " receives " + h.holder + "'s lock from its primary.");
}

namespace {

// " seat:{gig}:A1 and seat:{gig}:A2 are held on r1 but absent on r2." for every key whose
// holders the story records, or nothing.
std::string keysLostInFailover(const World& world, const RedisNode& old,
                               const RedisNode& promoted) {
    std::vector<std::string> keys = world.heldKeys;
    if (!world.lockKey.empty() && std::find(keys.begin(), keys.end(), world.lockKey) == keys.end())
        keys.insert(keys.begin(), world.lockKey);
    std::string lost;
    int count = 0;
    for (const std::string& key : keys) {
        if (!old.redis.peek(key, world.now) || promoted.redis.peek(key, world.now)) continue;
        lost += std::string(lost.empty() ? "" : " and ") + key;
        ++count;
    }
    if (count == 0) return {};
    return " " + lost + (count == 1 ? " is" : " are") + " held on " + old.name + " but absent on " +
           promoted.name + ".";
}

}  // namespace

void performFailover(World& world, Recording& recording, FailoverFault& failover) {
    failover.announced = true;
    const int old = world.primary;
    world.primary = failover.promote;
    auto lost = std::erase_if(world.inFlight,
                              [&](const InFlightWrite& w) { return w.to == failover.promote; });
    // The old primary's replication stream ends: what it had not delivered to the other
    // replicas is gone too, and they follow the promoted node from now on.
    std::erase_if(world.inFlight, [&](const InFlightWrite& w) { return w.from == old; });
    std::erase_if(world.replication, [&](const ReplicationLink& l) {
        return l.from == old && l.to == failover.promote;
    });
    for (auto& link : world.replication)
        if (link.from == old) link.from = failover.promote;
    RedisNode& promoted = world.node(failover.promote);
    std::string narration = "Failover: " + promoted.name + " is promoted to primary. " +
                            std::to_string(lost) + " write(s) from " + world.node(old).name +
                            " had not reached it and are lost." +
                            (failover.why.empty() ? "" : " " + failover.why);
    narration += keysLostInFailover(world, world.node(old), promoted);
    recordBeat(recording,
               recordEvent(world, recording, EventKind::Failover, promoted.keyLane, promoted.name,
                           "promoted"),
               narration);
}

}  // namespace lockscope::sim
