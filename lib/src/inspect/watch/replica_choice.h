#pragma once
// The replica a node's watch reads instead of its primary ("scan replicas"): behind Sentinel
// the replicas the Sentinels list, on a Redis Cluster the online replicas of the primary's
// own shard (READONLY, without which a cluster replica answers every read with MOVED). Each
// candidate is tried in turn, so one stopped replica does not send the watch to the primary
// while another answers. The note says what was chosen, or why the primary is read.

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/watch/watch_event.h"
#include "lockscope/sentinel.h"

namespace lockscope::inspect {

struct ReplicaPick {
    std::unique_ptr<Connection> connection;  // read-only; null: the primary is read
    WatchNote note;
};

// The candidates of one primary, asked anew at each choice (a replica may have been added,
// stopped or promoted). Throws when they cannot be listed.
using ReplicaLister = std::function<std::vector<Endpoint>(const Endpoint& primary)>;

// Tries each listed replica in turn. shard: "mymaster" or the slots, for the note.
ReplicaPick pickReplica(const ReplicaLister& list, const Endpoint& primary,
                        const std::string& shard, bool clusterReplica,
                        const ConnectionOptions& options);

// Behind Sentinel: SENTINEL replicas of the service (short timeouts: a Sentinel that does not
// answer at once is skipped).
ReplicaLister sentinelReplicas(SentinelTarget target);
// On a cluster: the online replicas of the primary that serves `primary`'s slots now, as the
// router knows the topology.
ReplicaLister clusterReplicas(ClusterRouter& router);

}  // namespace lockscope::inspect
