// StepContext: who holds a recorded key after a command (acquired, refused, deleted,
// extended), the intervals and facts that follow, and a lock lost under its holder. The lock
// key is drawn on its node's key lane too; another recorded key (a seat's hold) only on its
// holder's lane.
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

void StepContext::lostLock(int node, const std::string& key, const std::string& how) {
    recordLockLost(world_, recording_, node, key, how);
    if (key == world_.lockKey)
        emit(EventKind::KeyChanged, world_.node(node).keyLane, key + " " + how);
}

void StepContext::updateOwnership(const RedisCommand& c, const CommandReply& r) {
    const std::string& me = self_.name();
    const std::string& key = c.key;
    const bool drawn = key == world_.lockKey;  // on the node's key lane too
    RedisNode& node = world_.node(c.node);
    const LaneId keyLane = node.keyLane;
    const Holding* held = node.currentHolding(key);
    // With several servers the facts say which one ("on B").
    const std::string on = world_.nodes.size() > 1 ? " on " + node.name : std::string();
    auto holderText = [&](const Holding& h) {
        // The time left of this key (a seat's own hold), not of the story's lock key.
        return h.holder + " holds it (" + describePttl(node.redis.pttl(key, now())) + ")";
    };
    bool acquired = (c.op == RedisOp::Set && r.isOk()) ||
                    (c.op == RedisOp::SetNx && r.integer == 1) ||
                    (c.op == RedisOp::AcquireScript && r.integer > 0);
    bool refused = (c.op == RedisOp::Set && r.isNil()) ||
                   (c.op == RedisOp::SetNx && r.integer == 0) ||
                   (c.op == RedisOp::AcquireScript && r.integer == 0);
    bool deleted = (c.op == RedisOp::Del || c.op == RedisOp::ReleaseScript) && r.integer == 1;
    if (acquired) {
        if (held) lostLock(c.node, key, "overwritten by " + me);
        Holding h;
        h.key = key;
        h.holder = me;
        h.token = c.value;
        h.fence = c.op == RedisOp::AcquireScript ? r.integer : 0;
        h.since = now();
        h.hasTtl = c.ttlMs() >= 0;
        node.holdings.push_back(h);
        std::string label = me + (h.fence ? " (fence " + std::to_string(h.fence) + ")" : "");
        Interval owned{keyLane, IntervalKind::Ownership, now(), 0, label, c.value, h.fence, false,
                       c.node};
        owned.holder = me;
        owned.key = key;
        if (drawn) {
            emit(EventKind::KeyChanged, keyLane,
                 key + " = " + c.value + (h.fence ? ", fence " + std::to_string(h.fence) : ""));
            openInterval(world_, owned);
        }
        owned.lane = self_.lane();
        openInterval(world_, owned);
        if (!h.hasTtl) {
            Interval noTtl{keyLane, IntervalKind::NoTtl, now(), 0, "no TTL", c.value, 0, false,
                           c.node};
            noTtl.key = key;
            if (drawn) openInterval(world_, noTtl);
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
                world_.outcome.orphanBlockedMs =
                    std::max(world_.outcome.orphanBlockedMs, now() - held->since);
                facts_ = "Removed the orphan lock of crashed " + victim + ".";
            } else {
                ++world_.outcome.foreignDeletions;
                const Holding* mine = node.lastHoldingOf(me, key);
                facts_ =
                    "This deleted " + victim + "'s lock (taken at " +
                    formatVirtualTime(held->since) + "), not " + me + "'s: a foreign deletion." +
                    (mine && !mine->current ? " " + me + "'s own lock " + describeLoss(*mine) + "."
                                            : "");
            }
        }
        lostLock(c.node, key, "deleted by " + me);
    } else if ((c.op == RedisOp::Del) && r.integer == 0) {
        facts_ = "Nothing to delete: " + key + " is already gone.";
    } else if ((c.op == RedisOp::Expire || c.op == RedisOp::PExpire) && r.integer == 1) {
        if (Holding* h = node.currentHolding(key)) h->hasTtl = true;
        closeInterval(world_, recording_, keyLane, IntervalKind::NoTtl, now(), c.node, key);
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

}  // namespace lockscope::sim
