#include "replica_choice.h"

#include <chrono>

#include "lockscope/errors.h"

namespace lockscope::inspect {
namespace {

using namespace std::chrono_literals;

std::unique_ptr<Connection> openReplica(const Endpoint& at, ConnectionOptions options,
                                        bool clusterReplica) {
    options.readOnly = true;  // the watch never writes, and a replica would refuse it anyway
    auto connection = std::make_unique<Connection>(Connection::open(at, options));
    if (clusterReplica) connection->command({"READONLY"});
    return connection;
}

bool samePlace(const Endpoint& a, const Endpoint& b) {
    return a.host == b.host && a.port == b.port;
}

}  // namespace

ReplicaPick pickReplica(const ReplicaLister& list, const Endpoint& primary,
                        const std::string& shard, bool clusterReplica,
                        const ConnectionOptions& options) {
    ReplicaPick pick;
    const std::string primaryName = primary.display();
    std::vector<Endpoint> candidates;
    try {
        candidates = list(primary);
    } catch (const Error& e) {
        pick.note = {WatchNoteId::ReplicaListFailed, {primaryName, shard, e.what()}};
        return pick;
    }
    for (const Endpoint& replica : candidates) {
        try {
            pick.connection = openReplica(replica, options, clusterReplica);
            pick.note = {WatchNoteId::ReplicaChosen, {replica.display(), primaryName, shard}};
            return pick;
        } catch (const Error&) {
            pick.connection.reset();  // listed a moment ago, not answering now: the next one
        }
    }
    pick.note = {WatchNoteId::NoReplicaAnswers, {primaryName, shard}};
    return pick;
}

ReplicaLister sentinelReplicas(SentinelTarget target) {
    return [target = std::move(target)](const Endpoint&) {
        return discoverReplicas(target, {.connectTimeout = 1000ms, .commandTimeout = 1000ms});
    };
}

ReplicaLister clusterReplicas(ClusterRouter& router) {
    return [&router](const Endpoint& primary) {
        std::vector<Endpoint> out;
        for (const ClusterNode* p : router.topology().primaries()) {
            if (!samePlace(router.endpointOf(*p), primary)) continue;
            for (const ClusterNode* r : router.topology().replicasOf(*p))
                // "loading" too: a replica's state reaches the others by gossip, late.
                if (r->health != "fail" && r->health != "failed")
                    out.push_back(router.endpointOf(*r));
        }
        return out;
    };
}

}  // namespace lockscope::inspect
