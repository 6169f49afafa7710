#include "session/cluster_members.h"

#include <algorithm>

#include "lockscope/inspect/cluster/cluster_router.h"

namespace lockscope::ui {

std::optional<ClusterMembers> describeClusterMembers(inspect::ClusterRouter& router) {
    if (!router.isCluster()) return std::nullopt;
    const auto& topology = router.topology();
    std::vector<const inspect::ClusterNode*> nodes;
    nodes.reserve(topology.nodes.size());
    for (const auto& n : topology.nodes) nodes.push_back(&n);
    // Primaries in slot order, each followed by its replicas.
    auto firstSlot = [&](const inspect::ClusterNode* n) {
        const inspect::ClusterNode* p = n->isPrimary() ? n : topology.byId(n->primaryId);
        return p && !p->servedSlots.empty() ? p->servedSlots.front().first : inspect::kClusterSlots;
    };
    std::stable_sort(nodes.begin(), nodes.end(), [&](const auto* a, const auto* b) {
        return std::pair(firstSlot(a), !a->isPrimary()) < std::pair(firstSlot(b), !b->isPrimary());
    });
    ClusterMembers m;
    int primaries = 0;
    for (const auto* n : nodes) {
        const Endpoint at = router.endpointOf(*n);
        const QString hostPort = QString::fromStdString(at.host + ":" + std::to_string(at.port));
        if (n->isPrimary()) {
            ++primaries;
            m.nodeLines << QStringLiteral("%1 · primary · slots %2 · %3")
                               .arg(hostPort,
                                    QString::fromStdString(
                                        inspect::formatSlotRanges(n->servedSlots)),
                                    QString::fromStdString(n->health));
        } else {
            m.nodeLines << QStringLiteral("%1 · replica · %2")
                               .arg(hostPort, QString::fromStdString(n->health));
        }
    }
    m.topologyNote = QStringLiteral(
                         "Redis Cluster (%1): %2 primaries, %3 nodes; each primary is "
                         "watched on its own connection")
                         .arg(QString::fromStdString(topology.source))
                         .arg(primaries)
                         .arg(nodes.size());
    return m;
}

std::map<QString, QString> nodeRolesByInstance(const Endpoint& seed, const QStringList& nodeLines) {
    const QString separator = QStringLiteral(" · ");
    const QString seedHostPort =
        QString::fromStdString(seed.host + ":" + std::to_string(seed.port));
    std::map<QString, QString> roles;
    for (const QString& line : nodeLines) {
        const QStringList parts = line.split(separator);
        if (parts.size() < 2) continue;
        const QString& hostPort = parts[0];
        QString role = parts[1];
        if (role == QLatin1String("primary") && parts.size() >= 3)
            role += separator + QString(parts[2]).remove(QStringLiteral("slots "));
        // The seed's node reports under the seed as given (its db too); the others as members.
        const QString instance =
            hostPort == seedHostPort
                ? QString::fromStdString(seed.display())
                : QString::fromStdString(memberEndpoint(seed, hostPort).display());
        roles[instance] = role;
    }
    return roles;
}

Endpoint memberEndpoint(const Endpoint& seed, const QString& hostPort) {
    Endpoint e = seed;
    const auto colon = hostPort.lastIndexOf(QLatin1Char(':'));
    e.host = hostPort.left(colon).toStdString();
    e.port = hostPort.mid(colon + 1).toInt();
    e.db = 0;
    return e;
}

}  // namespace lockscope::ui
