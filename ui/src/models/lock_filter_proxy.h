#pragma once
// The filter box of the lock table: the text matches instance, key, resource, kind, holder
// token or a finding id. Sorting is forwarded to LockTableModel, which keeps its rows in
// order itself (see there why); this proxy keeps the source's order (sort column -1).

#include <QSortFilterProxyModel>
#include <string>

namespace lockscope::ui {

class LockTableModel;

class LockFilterProxy : public QSortFilterProxyModel {
    Q_OBJECT
  public:
    explicit LockFilterProxy(QObject* parent = nullptr);
    void setFilterText(const QString& text);
    void setSourceModel(QAbstractItemModel* model) override;
    // Sorts the LockTableModel underneath; any other source is sorted by the proxy.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

  protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

  private:
    LockTableModel* locks_ = nullptr;
    std::string filter_;  // lower-case UTF-8
};

}  // namespace lockscope::ui
