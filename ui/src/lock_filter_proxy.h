#pragma once
// Filter and sort for the lock table: the filter text matches instance, key, resource,
// kind, holder or a finding id; sorting uses each column's numeric value (EditRole), so
// "Remaining TTL" sorts by milliseconds left, with "no TTL" last.

#include <QSortFilterProxyModel>

namespace lockscope::ui {

class LockFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
public:
    explicit LockFilterProxy(QObject* parent = nullptr);
    void setFilterText(const QString& text);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;
    bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;

private:
    QString filter_;
};

}  // namespace lockscope::ui
