#include "session/connection_profile.h"

#include <QUrl>
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
        return QString::fromStdString(sentinelTarget().display());  // the db and TLS as edited
    } catch (const Error&) {
        return sentinelUrl;  // the dialog does not accept a bad one; a saved one is shown as is
    }
}

SentinelTarget ConnectionProfile::sentinelTarget() const {
    SentinelTarget target = parseSentinelUrl(sentinelUrl.toStdString());
    target.data = endpoint;
    if (!sentinelPassword.isEmpty()) target.sentinelPassword = sentinelPassword.toStdString();
    return target;
}

QString ConnectionProfile::sentinelUrlToSave() const {
    if (sentinelUrl.isEmpty()) return {};
    try {
        const SentinelTarget target = sentinelTarget();
        std::string url = target.display();
        if (!target.sentinelUser.empty()) {
            // display() ends with "#" and the service: the parameter goes just before them.
            const QByteArray user =
                QUrl::toPercentEncoding(QString::fromStdString(target.sentinelUser));
            url.insert(url.size() - target.service.size() - 1,
                       "?sentinel-user=" + user.toStdString());
        }
        return QString::fromStdString(url);
    } catch (const Error&) {
        // Never the case for a URL the dialog accepted; still, no password lands in a file:
        // the userinfo and the parameters go.
        const qsizetype hash = sentinelUrl.lastIndexOf(QLatin1Char('#'));
        QString url = hash >= 0 ? sentinelUrl.left(hash) : sentinelUrl;
        const QString service = hash >= 0 ? sentinelUrl.mid(hash) : QString();
        if (const qsizetype query = url.indexOf(QLatin1Char('?')); query >= 0) url.truncate(query);
        const qsizetype scheme = url.indexOf(QStringLiteral("://"));
        const qsizetype at = url.lastIndexOf(QLatin1Char('@'));
        if (scheme >= 0 && at > scheme) url.remove(scheme + 3, at + 1 - (scheme + 3));
        return url + service;
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
