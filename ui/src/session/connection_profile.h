#pragma once
// One saved connection of the sidebar: where the server is, how to treat it, what to watch.
// The password and a TLS key's passphrase are never part of what is saved: see PasswordVault.

#include <QString>
#include <QStringList>

#include "lockscope/endpoint.h"
#include "lockscope/inspect/cluster/cluster_addressing.h"
#include "lockscope/sentinel.h"

namespace lockscope::ui {

struct ConnectionProfile {
    QString id;     // stable key for settings and the keychain
    QString name;   // what the sidebar shows
    QString group;  // the folder it sits in (e.g. an environment); empty: none
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

    // Behind Sentinel: the Lettuce-style URL (redis-sentinel://h:p,h2:p2#service, lockscope/
    // sentinel.h). The worker asks the Sentinels for the primary and follows its failovers;
    // endpoint then holds the data nodes' user, password, db and TLS (its host is unused).
    // Saved without passwords (ProfileStore): sentinelUrlToSave().
    QString sentinelUrl;
    // The Sentinels have a password of their own (?sentinel-password=): it comes from the
    // keychain (PasswordVault::sentinelPasswordId) or is asked for at connect, into
    // sentinelPassword, which is never saved and wins over one in the URL.
    bool needsSentinelPassword = false;
    QString sentinelPassword;
    // "Scan replicas" (as the CLI's --scan-replicas): the watch reads an online replica and
    // leaves the primary alone (behind Sentinel one the Sentinels list; on a Redis Cluster one
    // of each primary's own shard, READONLY); releases and other actions still go to the
    // primary. With no online replica the primary is read, and the log says so
    // (the watch engine, server_watch.h). On a single server it changes nothing.
    bool scanReplica = false;

    static ConnectionProfile create(const QString& name, const Endpoint& endpoint);
    // Behind Sentinel, a connection to the service whoever is its primary.
    static ConnectionProfile createForSentinel(const QString& name, const QString& sentinelUrl);
    // The connection's address, and the instance its rows carry: the Sentinel URL without
    // passwords behind Sentinel (the same across failovers), else the endpoint's.
    QString displayUrl() const;
    // Behind Sentinel: the URL parsed, with the data nodes' endpoint as edited and
    // sentinelPassword if set. Throws InvalidArgumentError for a bad URL.
    SentinelTarget sentinelTarget() const;
    // The Sentinel URL as saved: no password of either kind, the Sentinel user kept.
    QString sentinelUrlToSave() const;
    // The address map as "announced=reachable" entries (the dialog's text, the settings').
    QStringList addressMapEntries() const;
};

}  // namespace lockscope::ui
