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
            release(context, false);
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
        context.narrate(Message{"sim.failover.asks", {name(), primary}});
        context.lockAttemptRefused();
        context.stop();
        return;
    }
    leaseEnds_ = context.now() + config_.ttlMs;
    if (config_.wait) {
        context.narrate(Message{"sim.failover.takes-then-waits",
                                {name(), primary, std::to_string(config_.numReplicas),
                                 std::to_string(config_.waitTimeout)}});
        phase_ = Phase::Waited;
        context.waitForReplicas(node_, config_.numReplicas, config_.waitTimeout);
        return;
    }
    context.narrate(Message{"sim.failover.takes-async", {name(), primary}});
    context.believeHeld(config_.key, leaseEnds_, node_);
    phase_ = Phase::Release;
    context.workFor(config_.work);
}

void FailoverClient::waited(StepContext& context) {
    if (context.waitReply() < config_.numReplicas) {
        // The hold may not survive a failover: give it back rather than rely on it.
        release(context, true);
        return;
    }
    context.note(Message{"sim.failover.relies", {name()}});
    context.believeHeld(config_.key, leaseEnds_, node_);
    phase_ = Phase::Release;
    context.workFor(config_.work);
}

void FailoverClient::release(StepContext& context, bool waitCameBackShort) {
    // Clients follow the primary (Sentinel tells them where it is now): the release goes
    // there, not to the node the lock was taken on, which a failover has demoted.
    RedisCommand release = RedisCommand::release(config_.key, token_);
    release.node = context.world().primary;
    context.send(release);
    // Whole sentences, one id each, so a translation need not glue pieces together.
    const bool moved = release.node != node_;
    const char* id =
        waitCameBackShort
            ? (moved ? "sim.failover.short-releases-moved" : "sim.failover.short-releases")
            : (moved ? "sim.failover.done-releases-moved" : "sim.failover.done-releases");
    context.narrate(Message{
        id, {name(), context.world().node(release.node).name, context.world().node(node_).name}});
    context.stopBelieving(config_.key);
    context.stop();
}

}  // namespace lockscope::sim
