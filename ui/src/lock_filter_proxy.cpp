#include "lock_filter_proxy.h"

#include "lock_table_model.h"

namespace lockscope::ui {

LockFilterProxy::LockFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setSortRole(Qt::EditRole);
    setDynamicSortFilter(true);
}

void LockFilterProxy::setFilterText(const QString& text) {
    filter_ = text.trimmed();
    invalidateFilter();
}

bool LockFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (filter_.isEmpty()) return true;
    const auto* model = sourceModel();
    for (int column : {LockTableModel::Instance, LockTableModel::Key, LockTableModel::Resource, LockTableModel::Kind}) {
        if (model->index(sourceRow, column, sourceParent).data().toString().contains(filter_, Qt::CaseInsensitive))
            return true;
    }
    QModelIndex holder = model->index(sourceRow, LockTableModel::Holder, sourceParent);
    if (holder.data(LockTableModel::FullTokenRole).toString().contains(filter_, Qt::CaseInsensitive)) return true;
    const QStringList findings = holder.data(LockTableModel::FindingsRole).toStringList();
    for (const QString& f : findings)
        if (f.contains(filter_, Qt::CaseInsensitive)) return true;
    return false;
}

bool LockFilterProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
    QVariant l = left.data(Qt::EditRole), r = right.data(Qt::EditRole);
    if (l.typeId() == QMetaType::LongLong || l.typeId() == QMetaType::Int) return l.toLongLong() < r.toLongLong();
    return QString::localeAwareCompare(l.toString(), r.toString()) < 0;
}

}  // namespace lockscope::ui
