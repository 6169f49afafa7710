#pragma once
// A connection whose server turns out to be a node of a Redis Cluster: the window shows the
// cluster as that one connection, its nodes (role, slot ranges, state) listed under it in the
// sidebar, and the hub watches each other primary with a worker of its own, so every lock of
// the cluster is in the table with the node that holds it. Asked on a worker thread only.

#include <QString>
#include <QStringList>
#include <map>
#include <optional>

#include "lockscope/endpoint.h"
#include "lockscope/inspect/cluster/cluster_router.h"

namespace lockscope::ui {

struct ClusterMembers {
    QStringList nodeLines;       // "127.0.0.1:7001 · primary · slots 0-5460 · online"
    QStringList otherPrimaries;  // "host:port" of each primary the endpoint does not reach
    // For each of otherPrimaries, the name its TLS certificate is checked against when not
    // its host: the name it announces, when reached through the address map or the seed's
    // host (cluster_addressing.h); empty otherwise.
    QStringList otherPrimaryTlsNames;
    QString topologyNote;  // for the command log
};

// nullopt: a plain server (or one that may not ask CLUSTER). self: the connection's own
// endpoint (its primary is watched by the connection itself). Throws the router's errors.
std::optional<ClusterMembers> describeClusterMembers(inspect::ClusterRouter& router,
                                                     const Endpoint& self);

// For the lock table's Node column: each node's role and slots ("primary · 0-5460"), by the
// instance name its worker reports under (Endpoint::display()), read from nodeLines as
// describeClusterMembers wrote them. seed: the connection's own endpoint.
std::map<QString, QString> nodeRolesByInstance(const Endpoint& seed, const QStringList& nodeLines);

// The endpoint of a cluster member: the connection's own (TLS, user, password), at host:port,
// its certificate checked against tlsName when one is given (ClusterMembers).
Endpoint memberEndpoint(const Endpoint& seed, const QString& hostPort, const QString& tlsName = {});

}  // namespace lockscope::ui
