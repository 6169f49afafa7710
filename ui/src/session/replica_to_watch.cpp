#include "session/replica_to_watch.h"

#include <QObject>
#include <chrono>

#include "lockscope/errors.h"

namespace lockscope::ui {
namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

// Read-only: the watch never writes, and a replica would refuse it anyway.
std::unique_ptr<Connection> openReadOnly(const Endpoint& at, ConnectionOptions options) {
    options.readOnly = true;
    return std::make_unique<Connection>(Connection::open(at, options));
}

// The primary the router's seed is: the watched node (null when the seed is a replica).
const inspect::ClusterNode* seedPrimary(inspect::ClusterRouter& router) {
    const Endpoint& seed = router.seed();
    for (const inspect::ClusterNode* primary : router.topology().primaries()) {
        const Endpoint at = router.endpointOf(*primary);
        if (at.host == seed.host && at.port == seed.port) return primary;
    }
    return nullptr;
}

}  // namespace

ReplicaToWatch openSentinelReplica(const SentinelTarget& target, const std::string& primary) {
    const QString service = text(target.service), primaryName = text(primary);
    ReplicaToWatch chosen;
    try {
        const ConnectionOptions quick{.connectTimeout = std::chrono::milliseconds(1000),
                                      .commandTimeout = std::chrono::milliseconds(1000)};
        for (const Endpoint& replica : discoverReplicas(target, quick)) {
            try {
                chosen.connection = openReadOnly(replica, {});
                chosen.note = QObject::tr(
                                  "Sentinel: scanning replica %1 of %2 (SENTINEL replicas); "
                                  "releases go to the primary %3")
                                  .arg(text(replica.display()), service, primaryName);
                return chosen;
            } catch (const IoError&) {
                // Listed as online a moment ago: try the next one.
            }
        }
        chosen.note = QObject::tr(
                          "Sentinel: no online replica of %1 answers: scanning the "
                          "primary %2")
                          .arg(service, primaryName);
    } catch (const Error& e) {
        chosen.note = QObject::tr(
                          "Sentinel: could not list the replicas of %1 (%2): scanning "
                          "the primary %3")
                          .arg(service, text(e.what()), primaryName);
    }
    return chosen;
}

ReplicaToWatch openClusterReplica(inspect::ClusterRouter& router, bool askAgain) {
    const QString seed = text(router.seed().host + ":" + std::to_string(router.seed().port));
    ReplicaToWatch chosen;
    try {
        if (askAgain) router.refresh();
        if (!router.isCluster()) {
            chosen.note =
                QObject::tr("scan replicas: %1 is not a Redis Cluster node: scanning it").arg(seed);
            return chosen;
        }
        const inspect::ClusterNode* primary = seedPrimary(router);
        if (!primary) {
            chosen.note =
                QObject::tr("cluster: %1 is not a primary (a replica already): scanning it")
                    .arg(seed);
            return chosen;
        }
        const inspect::ClusterNode* replica = router.topology().onlineReplicaOf(*primary);
        if (!replica) {
            chosen.note =
                QObject::tr("cluster: no online replica of %1 (slots %2): scanning the primary")
                    .arg(seed, text(inspect::formatSlotRanges(primary->servedSlots)));
            return chosen;
        }
        const Endpoint at = router.endpointOf(*replica);
        chosen.connection = openReadOnly(at, router.options());
        // Without READONLY a cluster replica answers every read with MOVED to its primary.
        chosen.connection->command({"READONLY"});
        const std::int64_t lag = inspect::ClusterTopology::lagBytes(*primary, *replica);
        chosen.note = QObject::tr(
                          "cluster: scanning replica %1 of %2 (slots %3, %4); releases go to the "
                          "primary")
                          .arg(text(at.host + ":" + std::to_string(at.port)), seed,
                               text(inspect::formatSlotRanges(primary->servedSlots)),
                               lag < 0 ? QObject::tr("its lag not reported")
                                       : QObject::tr("%1 bytes behind").arg(lag));
    } catch (const Error& e) {
        chosen.connection.reset();
        chosen.note = QObject::tr(
                          "cluster: could not open a replica of %1 (%2): scanning the "
                          "primary")
                          .arg(seed, text(e.what()));
    }
    return chosen;
}

}  // namespace lockscope::ui
