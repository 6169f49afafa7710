#include "session/profile_store.h"

#include <QSettings>

#include "lockscope/errors.h"

namespace lockscope::ui {
namespace {

// TLS settings are paths and switches only: a key's contents or passphrase never land here.
TlsOptions loadTls(const QSettings& s) {
    auto path = [&s](const char* name) { return s.value(name).toString().toStdString(); };
    TlsOptions tls;
    tls.enabled = s.value("tls", false).toBool();
    tls.caFile = path("tlsCaFile");
    tls.caDir = path("tlsCaDir");
    tls.certFile = path("tlsCertFile");
    tls.keyFile = path("tlsKeyFile");
    tls.serverName = path("tlsServerName");
    tls.insecure = s.value("tlsInsecure", false).toBool();
    return tls;
}

void saveTls(QSettings& s, const TlsOptions& tls) {
    auto path = [&s](const char* name, const std::string& value) {
        s.setValue(name, QString::fromStdString(value));
    };
    s.setValue("tls", tls.enabled);
    path("tlsCaFile", tls.caFile);
    path("tlsCaDir", tls.caDir);
    path("tlsCertFile", tls.certFile);
    path("tlsKeyFile", tls.keyFile);
    path("tlsServerName", tls.serverName);
    s.setValue("tlsInsecure", tls.insecure);
}

// Whether the Sentinels want a password at connect: marked, typed into the URL, or at hand.
bool needsSentinelPassword(const ConnectionProfile& p) {
    if (p.sentinelUrl.isEmpty()) return false;
    if (p.needsSentinelPassword || !p.sentinelPassword.isEmpty()) return true;
    try {
        return !p.sentinelTarget().sentinelPassword.empty();
    } catch (const Error&) {
        return false;  // a URL that does not parse holds no password we could read
    }
}

}  // namespace

QList<ConnectionProfile> ProfileStore::load() const {
    QList<ConnectionProfile> profiles;
    int count = settings_.beginReadArray(QStringLiteral("connections"));
    for (int i = 0; i < count; ++i) {
        settings_.setArrayIndex(i);
        ConnectionProfile p;
        p.id = settings_.value("id").toString();
        p.name = settings_.value("name").toString();
        p.group = settings_.value("group").toString();
        p.endpoint.host = settings_.value("host", "127.0.0.1").toString().toStdString();
        p.endpoint.port = settings_.value("port", 6379).toInt();
        p.endpoint.unixPath = settings_.value("unixPath").toString().toStdString();
        p.endpoint.user = settings_.value("user").toString().toStdString();
        p.endpoint.db = settings_.value("db", 0).toInt();
        p.endpoint.tls = loadTls(settings_);
        p.readOnly = settings_.value("readOnly", false).toBool();
        p.needsPassword = settings_.value("needsPassword", false).toBool();
        p.needsKeyPassphrase = settings_.value("needsKeyPassphrase", false).toBool();
        p.patterns = settings_.value("patterns", QStringList{"lock:*"}).toStringList();
        p.sentinelUrl = settings_.value("sentinel").toString();
        p.needsSentinelPassword =
            !p.sentinelUrl.isEmpty() && settings_.value("needsSentinelPassword", false).toBool();
        // Any connection (a Redis Cluster reads a replica per shard too); older settings
        // saved it as false for all but Sentinel ones, and lack it before that: off.
        p.scanReplica = settings_.value("scanReplica", false).toBool();
        for (const QString& m : settings_.value("clusterMap").toStringList()) {
            try {
                inspect::addAddressMapping(p.clusterAddressing, m.toStdString());
            } catch (const Error&) {
                // A mapping edited by hand into nonsense is dropped, not fatal.
            }
        }
        p.clusterAddressing.throughSeedHost = settings_.value("clusterThroughSeedHost").toBool();
        // A budget outside (0, 1] in a hand-edited file falls back to the default.
        const double load = settings_.value("maxLoad", 0.05).toDouble();
        p.maxLoad = load > 0.0 && load <= 1.0 ? load : 0.05;
        if (!p.id.isEmpty()) profiles.append(p);
    }
    settings_.endArray();
    return profiles;
}

void ProfileStore::save(const QList<ConnectionProfile>& profiles) {
    settings_.remove(QStringLiteral("connections"));
    settings_.beginWriteArray(QStringLiteral("connections"));
    int index = 0;
    for (const auto& p : profiles) {
        if (p.isSandbox) continue;  // the sandbox lives only as long as the app
        settings_.setArrayIndex(index++);
        settings_.setValue("id", p.id);
        settings_.setValue("name", p.name);
        settings_.setValue("group", p.group);
        settings_.setValue("host", QString::fromStdString(p.endpoint.host));
        settings_.setValue("port", p.endpoint.port);
        settings_.setValue("unixPath", QString::fromStdString(p.endpoint.unixPath));
        settings_.setValue("user", QString::fromStdString(p.endpoint.user));
        settings_.setValue("db", p.endpoint.db);
        saveTls(settings_, p.endpoint.tls);
        settings_.setValue("readOnly", p.readOnly);
        settings_.setValue("needsPassword", p.needsPassword || !p.endpoint.password.empty());
        settings_.setValue("needsKeyPassphrase",
                           p.needsKeyPassphrase || !p.endpoint.tls.keyPassphrase.empty());
        settings_.setValue("patterns", p.patterns);
        // Behind Sentinel: its URL without passwords (both are the vault's), its user kept.
        settings_.setValue("sentinel", p.sentinelUrlToSave());
        settings_.setValue("needsSentinelPassword", needsSentinelPassword(p));
        settings_.setValue("scanReplica", p.scanReplica);
        settings_.setValue("clusterMap", p.addressMapEntries());
        settings_.setValue("clusterThroughSeedHost", p.clusterAddressing.throughSeedHost);
        settings_.setValue("maxLoad", p.maxLoad);
    }
    settings_.endArray();
    settings_.sync();
}

}  // namespace lockscope::ui
