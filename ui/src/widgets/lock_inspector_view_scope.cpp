#include "widgets/lock_inspector_view_scope.h"

#include <QSignalBlocker>
#include <map>

#include "models/lock_table_model.h"
#include "session/connection_hub.h"

namespace lockscope::ui {
namespace {

enum ItemRole { KindRole = Qt::UserRole + 1, ValueRole };
enum Kind { AllKind, GroupKind, ConnectionKind };

struct Listed {
    QString name;
    QString group;
};

}  // namespace

LockScopeBox::LockScopeBox(const ConnectionHub& hub, const LockTableModel& model, QWidget* parent)
    : QComboBox(parent), hub_(hub), model_(model) {
    setObjectName(QStringLiteral("lockScope"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setMinimumContentsLength(14);
    setToolTip(tr("Show the locks of all connections, of one group or of one connection"));
    addItem(tr("All connections"));
    setItemData(0, AllKind, KindRole);
    connect(this, &QComboBox::currentIndexChanged, this, [this] { emit scopeChanged(scope()); });
}

RowScope LockScopeBox::scope() const {
    const QString value = currentData(ValueRole).toString();
    switch (currentData(KindRole).toInt()) {
        case GroupKind:
            return RowScope::ofGroup(value);
        case ConnectionKind:
            return RowScope::ofConnection(value);
        default:
            return RowScope::all();
    }
}

void LockScopeBox::refresh() {
    // By connection id: a cluster's primaries are one connection, under the cluster's name.
    std::map<QString, Listed> connections;
    for (const QString& instance : model_.instanceNames()) {
        const ConnectionProfile* p = hub_.profileForInstance(instance);
        if (p && !p->clusterOf.isEmpty()) p = hub_.profile(p->clusterOf);
        if (p) connections[p->id] = {p->name, p->group};
    }
    // The ungrouped connections first, then each group with its connections (by name).
    std::map<QString, std::multimap<QString, QString>> byGroup;  // group -> name -> id
    for (const auto& [id, listed] : connections)
        byGroup[listed.group].emplace(listed.name.toLower(), id);
    const RowScope before = scope();
    {
        QSignalBlocker quiet(this);
        while (count() > 1) removeItem(count() - 1);
        for (const auto& [group, members] : byGroup) {
            const QString indent = group.isEmpty() ? QString() : QStringLiteral("    ");
            if (!group.isEmpty()) {
                addItem(tr("Group: %1").arg(group));
                setItemData(count() - 1, GroupKind, KindRole);
                setItemData(count() - 1, group, ValueRole);
            }
            for (const auto& [lowerName, id] : members) {
                addItem(indent + connections[id].name);
                setItemData(count() - 1, ConnectionKind, KindRole);
                setItemData(count() - 1, id, ValueRole);
                setItemData(count() - 1, tr("Only the locks of %1").arg(connections[id].name),
                            Qt::ToolTipRole);
            }
        }
        if (!choose(before)) setCurrentIndex(0);
    }
    if (scope() != before) emit scopeChanged(scope());
}

bool LockScopeBox::choose(const RowScope& scope) {
    if (scope.isAll()) {
        setCurrentIndex(0);
        return true;
    }
    const bool group = scope.connectionId.isEmpty();
    for (int i = 1; i < count(); ++i)
        if (itemData(i, KindRole).toInt() == (group ? GroupKind : ConnectionKind) &&
            itemData(i, ValueRole).toString() == (group ? scope.group : scope.connectionId)) {
            setCurrentIndex(i);
            return true;
        }
    return false;
}

}  // namespace lockscope::ui
