#pragma once
// Which servers a command reads, beyond the URLs given: the nodes of a cluster behind one URL
// (watch and doctor --observe follow every primary, and a shard's new primary after a
// failover), and behind Sentinel with --scan-replicas an online replica instead of the
// primary (no scan load on the primary).

#include <memory>
#include <string>
#include <vector>

#include "connection_flags.h"
#include "lockscope/inspect/cluster/cluster_router.h"

namespace lockscope::cli {

struct WatchTarget {
    Endpoint endpoint;
    // A cluster's primary: the router that follows the cluster (shared by its primaries, one
    // thread) and the first slot of its shard, whose owner is the shard's primary.
    std::shared_ptr<inspect::ClusterRouter> cluster;
    int firstSlot = -1;
    std::string slotRanges;  // "0-5460", for the failover event
};

// Every given endpoint, a cluster's replaced by each of its primaries (in slot order). An
// endpoint that cannot be asked stays as given: connecting to it reports the error.
std::vector<WatchTarget> primariesToWatch(const InspectorFlags& flags);

// With --scan-replicas behind Sentinel: an online replica of the service (SENTINEL replicas),
// saying so in notes; otherwise (or when none is online) the endpoint itself.
Endpoint endpointToScan(const InspectorFlags& flags, const Endpoint& endpoint,
                        std::vector<std::string>& notes);

}  // namespace lockscope::cli
