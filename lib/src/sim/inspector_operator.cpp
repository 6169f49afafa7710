#include "inspector_operator.h"

namespace lockscope::sim {

InspectorOperator::InspectorOperator(std::string name, LaneId lane, std::string key,
                                     VirtualMs releaseDelay)
    : ClonableActor(std::move(name), lane), key_(std::move(key)), releaseDelay_(releaseDelay) {}

void InspectorOperator::step(StepContext& context) {
    if (phase_ == Phase::Inspect) {
        CommandReply value = context.send(RedisCommand::get(key_));
        context.narrate("The operator opens LockScope's inspector, which reads the lock:");
        CommandReply ttl = context.send(RedisCommand::pttl(key_));
        if (value.kind != CommandReply::Kind::Bulk) {
            context.narrate("PTTL: the key is gone, nothing to do.");
            context.stop();
            return;
        }
        seen_ = value.bulk;
        orphan_ = ttl.integer == -1;
        context.predict("The inspector reads " + key_ + ". What does PTTL return, and why?",
                        orphan_ ? "-1: the key has no TTL. The holder crashed between SETNX and "
                                  "EXPIRE, so nothing will ever expire it."
                                : "A positive TTL: the lock will expire by itself.");
        if (!orphan_) {
            context.narrate("The lock has a TTL; the inspector leaves it alone.");
            context.stop();
            return;
        }
        context.narrate("PTTL -1.");
        const InstanceRun* run = nullptr;
        if (const Holding* h = context.holding()) run = context.world().run(h->holder);
        context.note("The inspector flags " + key_ + " as an orphan: value \"" + seen_ +
                     "\" is a fixed value, not a token, and it has no TTL. " +
                     (run && run->state == RunState::Crashed
                          ? "Its holder " + run->actor + " has crashed. "
                          : std::string()) +
                     "Every later run is refused until someone removes it.");
        phase_ = Phase::Release;
        context.wakeAfter(releaseDelay_);
        return;
    }
    CommandReply r = context.send(RedisCommand::release(key_, seen_));
    context.narrate(
        "The operator clicks Release. A safe release deletes the key only if it "
        "still holds \"" +
        seen_ + "\", the value the inspector showed" +
        (r.integer == 1 ? "." : "; it changed, so nothing was deleted."));
    context.stop();
}

}  // namespace lockscope::sim
