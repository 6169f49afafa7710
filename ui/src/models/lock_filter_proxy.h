#pragma once
// The filter box of the lock table: the text matches instance, key, resource, kind, holder
// token or a finding id; the scope keeps one group's or one connection's rows. Sorting is forwarded
// to LockTableModel, which keeps its rows in order itself; this proxy keeps the source's order and
// only hides rows.
//
// Written on QAbstractProxyModel rather than QSortFilterProxyModel because of one cost: on
// every layout change of its source (each re-sort of the table) QSortFilterProxyModel drops
// its row mapping and rebuilds it over every row, about 40 ms at a million rows, the largest
// share of the window's stall while a rescan streams rows in. Here, with an empty filter the
// proxy is the identity (no per-row state, a layout change costs only the few persistent
// indexes), and with a filter it holds the matching source rows in ascending order, which
// the source's own order makes a binary search away from either side.

#include <QAbstractProxyModel>
#include <string>
#include <utility>
#include <vector>

#include "models/row_scope.h"

namespace lockscope::ui {

class LockTableModel;

class LockFilterProxy : public QAbstractProxyModel {
    Q_OBJECT
  public:
    explicit LockFilterProxy(QObject* parent = nullptr);
    void setSourceModel(QAbstractItemModel* model) override;
    // Resets the proxy: a view keeps its selection only through the caller (see
    // LockInspectorView), which is cheaper than announcing every hidden run of rows.
    void setFilterText(const QString& text);
    // Only the locks whose holder is gone (LockTableModel::OrphanRole), with the text filter
    // on top. A row whose verdict changes comes or goes like a row whose text changes.
    void setOrphansOnly(bool on);
    bool orphansOnly() const { return orphansOnly_; }
    // Only one group's or one connection's locks (LockTableModel::setInstanceScope), with the
    // other filters on top; RowScope::all() shows every connection's.
    void setScope(const RowScope& scope);
    const RowScope& scope() const { return scope_; }
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    QModelIndex mapToSource(const QModelIndex& proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex& sourceIndex) const override;
    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    QModelIndex sibling(int row, int column, const QModelIndex& index) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    bool hasChildren(const QModelIndex& parent = {}) const override;

  private:
    bool filtering() const { return !filter_.empty() || orphansOnly_ || !scope_.isAll(); }
    bool accepts(int sourceRow) const;
    void refilter();
    // Proxy rows [first, last) of the accepted source rows in [sourceFirst, sourceLast].
    std::pair<int, int> acceptedBetween(int sourceFirst, int sourceLast) const;
    void connectSource(QAbstractItemModel* model);

    void sourceRowsAboutToBeInserted(int first, int last);
    void sourceRowsInserted(int first, int last);
    void sourceRowsAboutToBeRemoved(int first, int last);
    void sourceRowsRemoved(int first, int last);
    void sourceLayoutAboutToBeChanged();
    void sourceLayoutChanged();
    void sourceDataChanged(const QModelIndex& topLeft, const QModelIndex& bottomRight,
                           const QList<int>& roles);
    void placeFlippedRows(int sourceFirst, int sourceLast);

    LockTableModel* locks_ = nullptr;
    std::string filter_;  // lower-case UTF-8; empty: every row, the identity
    bool orphansOnly_ = false;
    RowScope scope_;
    std::vector<int> accepted_;  // ascending source rows, while filtering
    std::pair<int, int> removing_{0, 0};
    QModelIndexList layoutProxy_;  // persistent indexes across a source layout change
    QList<QPersistentModelIndex> layoutSource_;
};

}  // namespace lockscope::ui
