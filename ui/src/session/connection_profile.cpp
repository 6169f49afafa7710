#include "session/connection_profile.h"

#include <QUuid>

#include "lockscope/errors.h"
#include "lockscope/sentinel.h"

namespace lockscope::ui {

ConnectionProfile ConnectionProfile::create(const QString& name, const Endpoint& endpoint) {
    ConnectionProfile p;
    p.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    p.name = name;
    p.endpoint = endpoint;
    return p;
}

ConnectionProfile ConnectionProfile::createForSentinel(const QString& name,
                                                       const QString& sentinelUrl) {
    ConnectionProfile p = create(name, parseSentinelUrl(sentinelUrl.toStdString()).data);
    p.sentinelUrl = sentinelUrl;
    return p;
}

QString ConnectionProfile::displayUrl() const {
    if (sentinelUrl.isEmpty()) return QString::fromStdString(endpoint.display());
    try {
        SentinelTarget target = parseSentinelUrl(sentinelUrl.toStdString());
        target.data = endpoint;  // the db and TLS as edited
        return QString::fromStdString(target.display());
    } catch (const Error&) {
        return sentinelUrl;  // the dialog does not accept a bad one; a saved one is shown as is
    }
}

QStringList ConnectionProfile::addressMapEntries() const {
    QStringList entries;
    for (const auto& [announced, reachable] : clusterAddressing.addressMap)
        entries << QString::fromStdString(announced) + QLatin1Char('=') +
                       QString::fromStdString(reachable);
    return entries;
}

}  // namespace lockscope::ui
