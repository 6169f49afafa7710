#include "replicated_setup.h"

namespace lockscope::sim {

const char* const kReplicasMistake =
    "The guide's common mistake \"Replicas make the lock safe\": with asynchronous "
    "replication, a failover can promote a replica that never saw the lock key, so two "
    "clients hold it.";

std::vector<ParamSpec> replicaSetParams(VirtualMs lag, VirtualMs failoverAt,
                                        const std::string& failoverText) {
    return {
        {"lag_ms", "replication lag of r2", lag, 0, 60000},
        {"failover_at_ms", failoverText, failoverAt, 0, 3600000},
    };
}

std::vector<ServerFault> replicaSetFaults() {
    return {
        {"failover_at_ms", {}, "r1 fails over at %1", ServerFault::Shown::Time},
        {"lag_ms", {0, 200, 2000}, "r2's replication lags %1", ServerFault::Shown::Duration},
    };
}

void setUpReplicaSet(World& world, Recording& recording, const ScenarioParams& params,
                     ReplicaSetSpec& spec) {
    world.outcome.countsBeliefOverlaps = true;
    spec.lag = params.get("lag_ms");
    spec.failoverAt = params.get("failover_at_ms");
    world.lockKey = spec.key;
    world.nodes.resize(spec.slowLag >= 0 ? 3 : 2);
    for (std::size_t n = 0; n < world.nodes.size(); ++n) {
        RedisNode& node = world.nodes[n];
        node.name = "r" + std::to_string(n + 1);
        node.keyLane = addLane(recording, LaneKind::RedisKey, node.name + " " + spec.key,
                               n == 0 ? "primary" : "replica of r1");
    }
    world.replication.push_back({0, 1, spec.lag});
    if (spec.slowLag >= 0) world.replication.push_back({0, 2, spec.slowLag});
    FailoverFault failover{spec.failoverAt, spec.promote};
    const std::string promoted = world.node(spec.promote).name;
    if (world.nodes.size() == 2)
        failover.why = promoted + " is the only replica.";
    else if (spec.promote == 1)
        failover.why = "Sentinel promotes " + promoted +
                       ", the replica with the most of the primary's data (the smallest lag).";
    else
        failover.why =
            "Sentinel would promote r2, the replica with the most data, but r2 "
            "cannot be reached at the failover (down or cut off), so " +
            promoted + " is promoted, although it is further behind.";
    world.faults.failovers.push_back(failover);
}

std::string describeReplicas(const World& world) {
    std::string s;
    for (const auto& link : world.replication)
        s += (s.empty() ? "" : ", ") + world.node(link.to).name + " (" + formatDuration(link.lag) +
             " behind)";
    return s;
}

}  // namespace lockscope::sim
