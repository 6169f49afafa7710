#pragma once
// What the failover and seat-hold stories share: a primary r1 with asynchronous replicas
// (r2 lag ms behind, r3 if asked), each node with its key lane, and the planned failover.

#include "lockscope/sim/scenario.h"

namespace lockscope::sim {

struct ReplicaSetSpec {
    std::string key;           // the key whose lanes and ownership are drawn
    VirtualMs lag = 20;        // lag_ms
    VirtualMs slowLag = -1;    // < 0: no third node
    VirtualMs failoverAt = 0;  // failover_at_ms
    int promote = 1;           // node index promoted by the failover
};

// lag_ms (r2's replication lag) and failover_at_ms, which setUpReplicaSet reads.
std::vector<ParamSpec> replicaSetParams(VirtualMs lag, VirtualMs failoverAt,
                                        const std::string& failoverText);
// Reads lag_ms and failover_at_ms into spec, then builds the nodes, their lanes, the links
// and the failover of a story with several servers.
void setUpReplicaSet(World& world, Recording& recording, const ScenarioParams& params,
                     ReplicaSetSpec& spec);
// The faults --explore adds to a replicated story: the failover at any moment and r2's
// replication lag.
std::vector<ServerFault> replicaSetFaults();
// "r2 (20 ms behind)", for the introduction.
std::string describeReplicas(const World& world);

// The explanation shared by the failover stories' readers: why the promoted node lacks keys.
extern const char* const kReplicasMistake;

}  // namespace lockscope::sim
