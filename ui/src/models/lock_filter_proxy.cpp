#include "models/lock_filter_proxy.h"

#include "models/lock_table_model.h"

namespace lockscope::ui {

LockFilterProxy::LockFilterProxy(QObject* parent) : QSortFilterProxyModel(parent) {
    setDynamicSortFilter(true);
}

void LockFilterProxy::setSourceModel(QAbstractItemModel* model) {
    locks_ = qobject_cast<LockTableModel*>(model);
    QSortFilterProxyModel::setSourceModel(model);
}

void LockFilterProxy::sort(int column, Qt::SortOrder order) {
    if (!locks_) return QSortFilterProxyModel::sort(column, order);
    locks_->sort(column, order);
}

void LockFilterProxy::setFilterText(const QString& text) {
    filter_ = text.trimmed().toLower().toStdString();
    invalidateFilter();
}

bool LockFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const {
    if (filter_.empty()) return true;
    if (locks_) return locks_->rowMatches(sourceRow, filter_);
    return QSortFilterProxyModel::filterAcceptsRow(sourceRow, sourceParent);
}

}  // namespace lockscope::ui
