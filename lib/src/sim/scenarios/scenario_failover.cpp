// failover: "Replicas make the lock safe" is a mistake. A lock the primary acknowledged has
// not reached the replica that a failover promotes; a second client then takes the same
// lock. WAIT 1 50 after acquiring narrows the window but does not close it.
#include "lockscope/sim/story_measures.h"
#include "replicated_setup.h"
#include "scenario_catalog.h"
#include "sim/actors/failover_client.h"
#include "sim/narrator.h"

namespace lockscope::sim {

namespace {

const std::string kKey = "lock:{payroll}";

// The story's conclusion, from what the rules found: what let two clients hold the lock, or
// why they did not.
std::string conclude(const World& world, const FailoverClientConfig& config) {
    const OutcomeSummary& o = world.outcome;
    std::string s;
    if (o.overlapsAfterFailover > 0)
        s = config.wait
                ? "WAIT only reports how many replicas had the write when it returned. Sentinel "
                  "and Cluster do promote the most up-to-date replica they can reach, so the "
                  "one that acknowledged usually wins; but when it cannot be reached at the "
                  "failover, a replica without the key is promoted. WAIT narrows the window; it "
                  "does not close it. Correctness needs the resource to check, not Redis alone."
                : "Replication did not make the lock safe: the failover promoted a replica "
                  "without client1's key. Run again with wait=1: WAIT 1 50 narrows the window; "
                  "with failover_at_ms=100 promote=3 see that it does not close it.";
    if (o.overlapsAfterLeaseExpired > 0)
        s += std::string(s.empty() ? "" : " ") + "Here the lease ran out first: a " +
             formatDuration(config.ttlMs) + " TTL for " + formatDuration(config.work) +
             " of work. The key would be gone from any node, failover or not: that is the "
             "guide's expiry race (renew while working; fence the resource), not replication.";
    if (s.empty())
        s = o.waitsShort > 0 ? "No two clients held the lock: WAIT came back short and client1 "
                               "gave the lock back rather than rely on it."
            : o.lockAttemptsFailed > 0
                ? "No two clients held the lock: the promoted replica had received client1's "
                  "key before the failover, so client2 was refused."
                : "No two clients held the lock: client2 came after client1 had released it.";
    return s;
}

void build(World& world, Recording& recording, const ScenarioParams& params) {
    LaneId one = addLane(recording, LaneKind::Instance, "client1", "client of the primary");
    LaneId two = addLane(recording, LaneKind::Instance, "client2", "client of the primary");
    ReplicaSetSpec spec;
    spec.key = kKey;
    spec.slowLag = params.get("slow_lag_ms");
    spec.promote = static_cast<int>(params.get("promote")) - 1;
    setUpReplicaSet(world, recording, params, spec);

    FailoverClientConfig config;
    config.key = kKey;
    config.ttlMs = params.get("ttl_ms");
    config.wait = params.get("wait") == 1;
    config.work = params.get("work_ms");
    const VirtualMs secondAt = params.get("client2_at_ms");
    std::string intro = std::string(kReplicasMistake) + " r1 is the primary; its replicas are " +
                        describeReplicas(world) + ". client1 locks at 0.000s" +
                        (config.wait ? " and then runs WAIT 1 50, giving the lock back unless "
                                       "a replica acknowledged it"
                                     : "") +
                        "; r1 fails at " + formatVirtualTime(spec.failoverAt) + " and r" +
                        std::to_string(spec.promote + 1) + " is promoted; client2 locks at " +
                        formatVirtualTime(secondAt) +
                        ". For efficiency a lock lost in a failover costs some work done twice; "
                        "for correctness replication cannot be the guard, the resource must "
                        "check.";
    std::vector<Narrator::Line> lines = {{0, intro}};
    Narrator::Line closing{secondAt + config.work + 1, {}};
    closing.compose = [config](const World& world) { return conclude(world, config); };
    lines.push_back(closing);
    addActor(world, std::make_unique<Narrator>(world.node(0).keyLane, lines), 0);
    addActor(world, std::make_unique<FailoverClient>("client1", one, config, world.rng.token()), 0);
    FailoverClientConfig second = config;
    second.wait = false;  // the second client's own safety is not the question here
    addActor(world, std::make_unique<FailoverClient>("client2", two, second, world.rng.token()),
             secondAt);
}

}  // namespace

Scenario failoverScenario() {
    Scenario s;
    s.name = "failover";
    s.title = "\"Replicas make the lock safe\": a failover loses a lock, and WAIT 1 50 narrows it";
    s.summary =
        "A primary with two asynchronous replicas. client1's lock is acknowledged by the "
        "primary before any replica has it; the primary fails and a replica is promoted; "
        "client2 asks for the same lock. With wait=1 client1 runs WAIT 1 50 and gives the lock "
        "back when no replica acknowledged; try it with a failover that promotes the replica "
        "that did not acknowledge (failover_at_ms=100 promote=3). The verdict after the run "
        "counts the times two clients held it.";
    s.params = {
        {"wait", "1: client1 runs WAIT 1 50 after acquiring and gives the lock back on 0", 0, 0, 1},
    };
    for (ParamSpec& p : replicaSetParams(20, 10, "when r1 fails and a replica is promoted"))
        s.params.push_back(std::move(p));
    s.params.insert(s.params.end(),
                    {
                        {"slow_lag_ms", "replication lag of r3", 500, 0, 60000},
                        {"promote", "which replica is promoted (2 = r2, 3 = r3)", 2, 2, 3},
                        {"client2_at_ms", "when client2 asks for the lock", 1000, 0, 3600000},
                        {"ttl_ms", "TTL of the lock (PX)", 30000, 1, 86400000},
                        {"work_ms", "how long each client works with the lock", 5000, 0, 3600000},
                    });
    s.keys = {kKey};
    s.liveNotes =
        "Live: three private redis-servers; r2 and r3 are real replicas of r1 (REPLICAOF) whose "
        "replication stream passes through a gate that holds it while the model has the write "
        "in flight (on loopback it would arrive in microseconds). The failover is real: r1's "
        "replication links are cut, dropping what they held, the promoted replica runs "
        "REPLICAOF NO ONE and the other follows it. r1 stays up for the clients already "
        "connected to it, like a primary cut off from its replicas. With wait=1 the WAIT is a "
        "real WAIT, sent when the model's WAIT returns.";
    s.measures = {measure::overlappingHolds(), measure::waitsShort()};
    s.fixedBy = "wait=1";
    s.serverFaults = replicaSetFaults();
    s.serverFaults.push_back(
        {"promote", {2, 3}, "the failover promotes r%1", ServerFault::Shown::Number});
    s.serverFaults.push_back(
        {"slow_lag_ms", {0, 2000}, "r3's replication lags %1", ServerFault::Shown::Duration});
    s.build = build;
    return s;
}

}  // namespace lockscope::sim
