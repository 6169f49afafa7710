#pragma once
// ServerWatch's state (server_watch.h): the topology it found (a cluster's router, a
// Sentinel's announcements) and one NodeWatch per watched primary.

#include <memory>
#include <optional>
#include <vector>

#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "lockscope/sentinel_switches.h"
#include "node_watch.h"

namespace lockscope::inspect {

struct ServerWatch::Impl {
    struct Watched {
        std::unique_ptr<NodeWatch> node;
        SteadyClock::time_point nextFailoverCheck{};
    };

    std::shared_ptr<ClusterRouter> router;       // on a cluster
    std::unique_ptr<SentinelSwitches> switches;  // behind Sentinel
    std::vector<Watched> nodes;
    std::size_t topologySeen = 0;  // the router's events already reported
    SteadyClock::time_point nextRound{};
    bool opened = false;
    std::string clusterDownSaid;  // the last ClusterDown's arguments, joined; empty: up

    NodeWatchSetup setupFor(const ServerWatchOptions& o, Endpoint primary, std::string shard,
                            int firstSlot);
    void openSentinel(const ServerWatchOptions& o, std::vector<WatchEvent>& events);
    void openServer(const ServerWatchOptions& o, std::vector<WatchEvent>& events);
    static WatchEvent noteEvent(std::string node, WatchNote note);
    Endpoint primaryNow(const ServerWatchOptions& o, const NodeWatch& node, bool nodeLost);
    void followFailover(const ServerWatchOptions& o, Watched& w, bool askNow,
                        std::vector<WatchEvent>& events);
    void handOff(const ServerWatchOptions& o, std::vector<std::optional<WatchUpdate>>& updates,
                 std::vector<WatchEvent>& events);
    void reportTopology(std::vector<WatchEvent>& events);
    // On a cluster: a primary that came to serve slots (a scale-out's new node, given a slot)
    // gets a watch of its own, opened now (or at its first round if it does not answer), so
    // a hand-off can give it a moved slot's locks with their history. A promoted replica is
    // no new primary: it serves a watched shard's first slot, and that watch follows it.
    void watchNewPrimaries(const ServerWatchOptions& o, std::vector<WatchEvent>& events);
    // On a cluster: which watched primaries do not answer and which slots have no primary
    // that answers, said once per change (ClusterDown), and ClusterUp when all answer again.
    void reportClusterHealth(std::vector<WatchEvent>& events);
    void reportRows(std::vector<std::optional<WatchUpdate>>& updates,
                    std::vector<WatchEvent>& events);
};

}  // namespace lockscope::inspect
