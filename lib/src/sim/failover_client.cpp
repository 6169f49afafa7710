#include "failover_client.h"

namespace lockscope::sim {

FailoverClient::FailoverClient(std::string name, LaneId lane, FailoverClientConfig config,
                               std::string token)
    : ClonableActor(std::move(name), lane), config_(std::move(config)), token_(std::move(token)) {}

void FailoverClient::step(StepContext& context) {
    switch (phase_) {
        case Phase::Acquire:
            acquire(context);
            break;
        case Phase::Waited:
            waited(context);
            break;
        case Phase::Release:
            release(context, name() + " is done and releases the lock");
            break;
    }
}

void FailoverClient::acquire(StepContext& context) {
    World& world = context.world();
    node_ = world.primary;
    RedisCommand set = RedisCommand::set(config_.key, token_, true, TtlUnit::Millis, config_.ttlMs);
    set.node = node_;
    const std::optional<OverlapCause> overlap = context.whyAlsoHeld(config_.key);
    CommandReply r = context.send(set);
    const std::string& primary = world.node(node_).name;
    if (overlap)
        context.predict(overlap->holder + " was told OK for " + config_.key +
                            " and still believes it holds it. " + name() + " sends SET NX to " +
                            primary + ", the primary now. Does it succeed?",
                        r.isOk() ? "Yes: " + overlap->explanation
                                 : "No: " + primary + " has " + overlap->holder + "'s key.");
    if (!r.isOk()) {
        context.narrate(name() + " asks the primary " + primary + " for the lock.");
        context.lockAttemptRefused();
        context.stop();
        return;
    }
    leaseEnds_ = context.now() + config_.ttlMs;
    if (config_.wait) {
        context.narrate(name() + " takes the lock on the primary " + primary + ", then asks WAIT " +
                        std::to_string(config_.numReplicas) + " " +
                        std::to_string(config_.waitTimeout) + " whether a replica has it.");
        phase_ = Phase::Waited;
        context.waitForReplicas(node_, config_.numReplicas, config_.waitTimeout);
        return;
    }
    context.narrate(name() + " takes the lock on the primary " + primary +
                    "; the reply comes before any replica has the key (replication is "
                    "asynchronous).");
    context.believeHeld(config_.key, leaseEnds_, node_);
    phase_ = Phase::Release;
    context.wakeAfter(config_.work);
}

void FailoverClient::waited(StepContext& context) {
    if (context.waitReply() < config_.numReplicas) {
        // The hold may not survive a failover: give it back rather than rely on it.
        release(context, "WAIT came back short, so " + name() +
                             " treats the lock as not acquired and gives it back");
        return;
    }
    context.note(name() + " now relies on the lock: a replica acknowledged it.");
    context.believeHeld(config_.key, leaseEnds_, node_);
    phase_ = Phase::Release;
    context.wakeAfter(config_.work);
}

void FailoverClient::release(StepContext& context, const std::string& why) {
    // Clients follow the primary (Sentinel tells them where it is now): the release goes
    // there, not to the node the lock was taken on, which a failover has demoted.
    RedisCommand release = RedisCommand::release(config_.key, token_);
    release.node = context.world().primary;
    context.send(release);
    context.narrate(why + " on " + context.world().node(release.node).name + ", the primary" +
                    (release.node == node_
                         ? "."
                         : " now (it took the lock on " + context.world().node(node_).name + ")."));
    context.stopBelieving(config_.key);
    context.stop();
}

}  // namespace lockscope::sim
