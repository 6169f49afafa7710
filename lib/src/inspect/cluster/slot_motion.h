#pragma once
// Slots on the move during a cluster scan: the migrations a node reports for itself
// (CLUSTER NODES: "[slot->-target]" and "[slot-<-source]") and the slots whose owner changed
// between two topologies. Their keys may have been seen twice or not at all by the scan.

#include <set>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/cluster/cluster_topology.h"

namespace lockscope::inspect {

struct SlotMotion {
    int slot = 0;
    std::string fromId, toId;  // the node giving the slot and the one taking it
};

// The migrations the connected node is part of. Throws the connection's errors.
std::vector<SlotMotion> slotsInMotion(Connection& node);

// Slots served by another primary (by id) in `after` than in `before`.
std::vector<SlotMotion> ownerChanges(const ClusterTopology& before, const ClusterTopology& after);

// The keys of the slot held by the connected node that match any pattern (Redis globs).
std::vector<std::string> keysInSlot(Connection& node, int slot,
                                    const std::vector<std::string>& patterns);

}  // namespace lockscope::inspect
