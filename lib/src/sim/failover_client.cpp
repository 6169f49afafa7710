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
            release(context);
            break;
    }
}

void FailoverClient::acquire(StepContext& context) {
    World& world = context.world();
    node_ = world.primary;
    std::string believer;
    for (const auto& b : world.beliefs)
        if (b.current && b.resource == config_.key) believer = b.actor;
    RedisCommand set = RedisCommand::set(config_.key, token_, true, TtlUnit::Millis, config_.ttlMs);
    set.node = node_;
    CommandReply r = context.send(set);
    const std::string& primary = world.node(node_).name;
    if (!believer.empty())
        context.predict(believer + " was told OK for " + config_.key + " and still believes it " +
                            "holds it. " + name() + " sends SET NX to " + primary +
                            ", the primary now. Does it succeed?",
                        r.isOk() ? "Yes: " + primary + " never received " + believer +
                                       "'s key, so SET NX finds nothing there."
                                 : "No: " + primary + " has " + believer + "'s key.");
    if (!r.isOk()) {
        context.narrate(name() + " asks the primary " + primary + " for the lock.");
        context.stop();
        return;
    }
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
    context.believeHeld(config_.key);
    phase_ = Phase::Release;
    context.wakeAfter(config_.work);
}

void FailoverClient::waited(StepContext& context) {
    if (context.waitReply() < config_.numReplicas) {
        // The hold may not survive a failover: give it back rather than rely on it.
        RedisCommand release = RedisCommand::release(config_.key, token_);
        release.node = node_;
        context.send(release);
        context.narrate("WAIT came back short, so " + name() +
                        " treats the lock as not acquired and gives it back.");
        context.stop();
        return;
    }
    context.note(name() + " now relies on the lock: a replica acknowledged it.");
    context.believeHeld(config_.key);
    phase_ = Phase::Release;
    context.wakeAfter(config_.work);
}

void FailoverClient::release(StepContext& context) {
    RedisCommand release = RedisCommand::release(config_.key, token_);
    release.node = node_;
    context.send(release);
    context.narrate(name() + " is done and releases the lock on " +
                    context.world().node(node_).name + ".");
    context.stopBelieving(config_.key);
    context.stop();
}

}  // namespace lockscope::sim
