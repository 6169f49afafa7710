#pragma once
// A connection whose server turns out to be a node of a Redis Cluster: the window shows the
// cluster as that one connection, its nodes (role, slot ranges, state) listed under it in the
// sidebar (the connection's watch engine watches every primary itself). Asked on a worker
// thread only.

#include <QString>
#include <QStringList>
#include <map>
#include <optional>

#include "lockscope/endpoint.h"
#include "lockscope/inspect/cluster/cluster_router.h"

namespace lockscope::ui {

struct ClusterMembers {
    QStringList nodeLines;  // "127.0.0.1:7001 · primary · slots 0-5460 · online"
    QString topologyNote;   // for the command log
};

// nullopt: a plain server (or one that may not ask CLUSTER). Throws the router's errors.
std::optional<ClusterMembers> describeClusterMembers(inspect::ClusterRouter& router);

// For the lock table's Node column: each node's role and slots ("primary · 0-5460"), by the
// instance name its worker reports under (Endpoint::display()), read from nodeLines as
// describeClusterMembers wrote them. seed: the connection's own endpoint.
std::map<QString, QString> nodeRolesByInstance(const Endpoint& seed, const QStringList& nodeLines);

// The endpoint of a cluster member: the connection's own (TLS, user, password), at host:port.
Endpoint memberEndpoint(const Endpoint& seed, const QString& hostPort);

}  // namespace lockscope::ui
