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

}  // namespace lockscope::ui
