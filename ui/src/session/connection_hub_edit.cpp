#include "session/connection_hub_edit.h"

#include <QCoreApplication>
#include <QStringList>

namespace lockscope::ui {
namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("ConnectionHub", text);
}

bool sameAddress(const Endpoint& a, const Endpoint& b) {
    return a.host == b.host && a.port == b.port && a.unixPath == b.unixPath && a.db == b.db;
}

}  // namespace

QString watchTargetChange(const ConnectionProfile& before, const ConnectionProfile& after) {
    const Endpoint& a = before.endpoint;
    const Endpoint& b = after.endpoint;
    QStringList changed;
    if (!sameAddress(a, b)) changed << tr("the address");
    if (a.user != b.user || a.password != b.password) changed << tr("the credentials");
    if (!(a.tls == b.tls)) changed << tr("TLS");
    if (before.sentinelUrl != after.sentinelUrl ||
        before.sentinelPassword != after.sentinelPassword)
        changed << tr("the Sentinels");
    if (before.scanReplica != after.scanReplica) changed << tr("reading replicas");
    if (before.addressMapEntries() != after.addressMapEntries() ||
        before.clusterAddressing.throughSeedHost != after.clusterAddressing.throughSeedHost ||
        before.clusterAddressing.serverNameForAll != after.clusterAddressing.serverNameForAll)
        changed << tr("the cluster's address map");
    if (changed.isEmpty() && !(a == b)) changed << tr("the address");  // a field added later
    return changed.join(QStringLiteral(", "));
}

}  // namespace lockscope::ui
