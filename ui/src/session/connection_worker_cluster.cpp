// The cluster half of ConnectionWorker (connection_worker.h): the sidebar's lines of a Redis
// Cluster's nodes, and where an action goes (a router to the key's slot owner on a cluster,
// the primary elsewhere). The watching itself is the engine's.

#include "lockscope/errors.h"
#include "lockscope/sentinel.h"
#include "session/cluster_members.h"
#include "session/connection_worker.h"

namespace lockscope::ui {
namespace {

using namespace std::chrono_literals;

// Short timeouts for the Sentinels an action asks for the primary: the watch asks them too.
const ConnectionOptions kQuickSentinel{.connectTimeout = 500ms, .commandTimeout = 500ms};

}  // namespace

void ConnectionWorker::describeCluster(bool instancesChanged) {
    inspect::ClusterRouter* router = actionRouter();
    if (!router) return;
    try {
        // What the engine's router learned (a failover, a moved slot) this one asks now.
        router->noteRedirect();
        router->followTopology(std::chrono::steady_clock::now());
        auto members = describeClusterMembers(*router);
        if (!members) return;
        QStringList instances;
        for (const auto& [node, instance] : instances_) instances << instance;
        if (nodeLines_.isEmpty()) logNote(members->topologyNote);
        if (members->nodeLines == nodeLines_ && !nodeLines_.isEmpty() && !instancesChanged) return;
        nodeLines_ = members->nodeLines;
        emit clusterFound(nodeLines_, instances);
    } catch (const Error&) {
        // No node answered this time: the next topology event asks again.
    }
}

inspect::ClusterRouter* ConnectionWorker::actionRouter() {
    if (!engine_ || !engine_->isCluster()) return nullptr;
    // Seeded at the connection's node, through its address map; it follows MOVED by itself.
    if (!router_)
        router_ = std::make_unique<inspect::ClusterRouter>(
            profile_.endpoint, ConnectionOptions{.readOnly = profile_.readOnly},
            profile_.clusterAddressing);
    return router_.get();
}

Connection& ConnectionWorker::actionConnection() {
    if (actionConnection_) return *actionConnection_;  // dropped at a failover or a lost reply
    // Behind Sentinel: the primary the Sentinels name now, not the one the watch opened at.
    const Endpoint primary = profile_.sentinelUrl.isEmpty()
                                 ? profile_.endpoint
                                 : discoverPrimary(profile_.sentinelTarget(), kQuickSentinel);
    actionConnection_ =
        std::make_unique<Connection>(Connection::open(primary, {.readOnly = profile_.readOnly}));
    observe(*actionConnection_);
    return *actionConnection_;
}

}  // namespace lockscope::ui
