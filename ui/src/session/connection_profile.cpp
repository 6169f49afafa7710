#include "session/connection_profile.h"

#include <QUuid>

namespace lockscope::ui {

ConnectionProfile ConnectionProfile::create(const QString& name, const Endpoint& endpoint) {
    ConnectionProfile p;
    p.id = QUuid::createUuid().toString(QUuid::WithoutBraces);
    p.name = name;
    p.endpoint = endpoint;
    return p;
}

QStringList ConnectionProfile::addressMapEntries() const {
    QStringList entries;
    for (const auto& [announced, reachable] : clusterAddressing.addressMap)
        entries << QString::fromStdString(announced) + QLatin1Char('=') +
                       QString::fromStdString(reachable);
    return entries;
}

}  // namespace lockscope::ui
