#pragma once
// One saved connection of the sidebar: where the server is, how to treat it, what to watch.
// The password and a TLS key's passphrase are never part of what is saved: see PasswordVault.

#include <QString>
#include <QStringList>

#include "lockscope/endpoint.h"
#include "lockscope/inspect/cluster_addressing.h"

namespace lockscope::ui {

struct ConnectionProfile {
    QString id;    // stable key for settings and the keychain
    QString name;  // what the sidebar shows
    Endpoint endpoint;
    bool readOnly = false;
    QStringList patterns{QStringLiteral("lock:*")};
    bool isSandbox = false;  // the embedded default; never saved
    // The server wants a password: it comes from the keychain, or is asked for at connect.
    bool needsPassword = false;
    // The TLS client key is encrypted: its passphrase comes from the keychain, or is asked for.
    bool needsKeyPassphrase = false;
    // The steady-state load budget: the share of one server core the watch may use.
    double maxLoad = 0.05;
    // A primary of a cluster opened for the connection clusterOf (never saved): it is not
    // asked about the cluster again.
    QString clusterOf;
    // A cluster whose nodes announce addresses this machine cannot reach (NAT, containers,
    // a tunnel): the address map and the "through the seed's host" switch, as the CLI's
    // --cluster-map and --cluster-via-seed.
    inspect::ClusterAddressing clusterAddressing;

    static ConnectionProfile create(const QString& name, const Endpoint& endpoint);
    QString displayUrl() const { return QString::fromStdString(endpoint.display()); }
    // The address map as "announced=reachable" entries (the dialog's text, the settings').
    QStringList addressMapEntries() const;
};

}  // namespace lockscope::ui
