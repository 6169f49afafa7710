#pragma once
// The replica a watch reads instead of the primary when the operator asks for it (the
// connection's "Scan replicas" switch, as the CLI's --scan-replicas): behind Sentinel an online
// replica the Sentinels list, on a Redis Cluster an online replica of the watched primary's own
// shard (READONLY). Watching then adds no load to the primary; releases and the other actions
// still go to the primary. Each choice says in a note what was chosen, or why the primary is
// read after all. Called on a worker's thread.

#include <QString>
#include <memory>
#include <string>

#include "lockscope/connection.h"
#include "lockscope/inspect/cluster_router.h"
#include "lockscope/sentinel.h"

namespace lockscope::ui {

struct ReplicaToWatch {
    std::unique_ptr<Connection> connection;  // read-only; null: the primary is read
    QString note;                            // for the command log
};

// primary: the service's primary now (Endpoint::display()), named in the note.
ReplicaToWatch openSentinelReplica(const SentinelTarget& target, const std::string& primary);

// router: seeded at the watched primary (its worker's node). askAgain: the topology is asked
// again first (a reconnect: the replica read before may be gone, or promoted).
ReplicaToWatch openClusterReplica(inspect::ClusterRouter& router, bool askAgain);

}  // namespace lockscope::ui
