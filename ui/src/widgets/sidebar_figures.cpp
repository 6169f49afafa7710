#include "widgets/sidebar_figures.h"

#include <algorithm>

#include "models/lock_table_model.h"
#include "session/connection_hub.h"
#include "widgets/connection_sidebar.h"

namespace lockscope::ui {

SidebarFigures::SidebarFigures(ConnectionHub& hub, const LockTableModel& locks,
                               ConnectionSidebar& sidebar, QObject* parent)
    : QObject(parent), hub_(hub), locks_(locks), sidebar_(sidebar) {
    connect(&hub_, &ConnectionHub::loadMeasured, this,
            [this](const QString& instance, double, double serverShare, double) {
                shareByInstance_[instance] = serverShare;
            });
    connect(&hub_, &ConnectionHub::scanFinished, this,
            [this](const QString& instance, bool cancelled, const QStringList&) {
                if (!cancelled) scanned_.insert(instance);
            });
    connect(&hub_, &ConnectionHub::instanceClosed, this, [this](const QString& instance) {
        shareByInstance_.remove(instance);
        scanned_.remove(instance);
    });
    timer_.setInterval(1000);
    connect(&timer_, &QTimer::timeout, this, &SidebarFigures::refresh);
    timer_.start();
}

QString SidebarFigures::connectionOf(const QString& instance) const {
    const ConnectionProfile* p = hub_.profileForInstance(instance);
    if (!p) return {};
    return p->clusterOf.isEmpty() ? p->id : p->clusterOf;
}

void SidebarFigures::refresh() {
    QHash<QString, int> locks;
    QHash<QString, double> load;
    // A count is shown once a scan of the connection ended: mid-scan it is a partial count.
    for (const QString& instance : scanned_)
        if (const QString id = connectionOf(instance); !id.isEmpty()) locks[id] += 0;
    const QHash<QString, int> rows = locks_.rowCountsByInstance();
    for (auto it = rows.begin(); it != rows.end(); ++it) {
        const QString id = connectionOf(it.key());
        if (!id.isEmpty() && locks.contains(id)) locks[id] += it.value();
    }
    for (auto it = shareByInstance_.begin(); it != shareByInstance_.end(); ++it)
        if (const QString id = connectionOf(it.key()); !id.isEmpty())
            load[id] = std::max(load.value(id, 0.0), it.value());
    for (const ConnectionProfile& p : sidebar_.profiles()) {
        if (!hub_.isOpen(p.id)) continue;
        sidebar_.setFigures(p.id, locks.value(p.id, -1), load.value(p.id, -1));
    }
}

}  // namespace lockscope::ui
