// LockTableModel's display order: sorting by a column, keeping the rows sorted as they
// change (at once, after a delay, or when the caller paces it), and holding the order still.

#include <algorithm>
#include <utility>

#include "models/lock_row_compare.h"
#include "models/lock_table_model.h"

namespace lockscope::ui {

void LockTableModel::keepSorted(const std::vector<int>& moved) {
    if (sortColumn_ < 0 || moved.empty()) return;
    unsorted_.insert(unsorted_.end(), moved.begin(), moved.end());
    if (orderHeld_ || resortPaced_) return;  // placed when the hold ends, or by the pacer
    if (resortTimer_.interval() == 0)
        resortNow();
    else if (!resortTimer_.isActive())
        resortTimer_.start();
}

void LockTableModel::setOrderHeld(bool held) {
    if (held == orderHeld_) return;
    orderHeld_ = held;
    if (held) return;
    removeIds(std::exchange(heldRemovals_, {}));
    if (!unsorted_.empty()) resortNow();
}

void LockTableModel::setResortPaced(bool paced) {
    if (paced == resortPaced_) return;
    resortPaced_ = paced;
    if (!paced && !unsorted_.empty() && !resortTimer_.isActive()) resortTimer_.start();
}

void LockTableModel::resortNow() {
    if (orderHeld_) return;
    std::vector<int> ids = std::exchange(unsorted_, {});
    if (sortColumn_ < 0) return;
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::erase_if(ids, [this](int id) { return order_.positionOf(id) < 0; });  // removed since
    auto lessById = [this](int l, int r) { return less(l, r); };
    if (ids.empty() || order_.inOrder(ids, lessById)) return;
    relayout([&] { order_.resort(ids, lessById); });
}

void LockTableModel::sort(int column, Qt::SortOrder order) {
    sortColumn_ = column >= 0 && column < ColumnCount ? column : -1;
    sortOrder_ = order;
    numericSort_ = isNumericColumn(sortColumn_);
    unsorted_.clear();            // the full sort below places them
    if (sortColumn_ < 0) return;  // arrival order from here on; the rows stay where they are
    if (numericSort_)
        for (int p = 0; p < order_.size(); ++p) {
            const auto id = std::size_t(order_.idAt(p));
            keys_[id].value = numericSortKey(*slots_[id].record, sortColumn_);
        }
    relayout([this] { order_.sortAll([this](int l, int r) { return less(l, r); }); });
}

bool LockTableModel::less(int leftId, int rightId) const {
    const SortKey& a = keys_[std::size_t(leftId)];
    const SortKey& b = keys_[std::size_t(rightId)];
    int c = numericSort_ ? (a.value > b.value) - (a.value < b.value)
                         : compareLockRecords(*slots_[std::size_t(leftId)].record,
                                              *slots_[std::size_t(rightId)].record, sortColumn_);
    if (sortOrder_ == Qt::DescendingOrder) c = -c;
    return c != 0 ? c < 0 : a.arrival < b.arrival;
}

void LockTableModel::relayout(const std::function<void()>& reorder) {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    const QModelIndexList before = persistentIndexList();
    std::vector<int> ids;
    ids.reserve(std::size_t(before.size()));
    for (const QModelIndex& i : before) ids.push_back(order_.idAt(i.row()));
    reorder();
    QModelIndexList after;
    after.reserve(before.size());
    for (qsizetype i = 0; i < before.size(); ++i)
        after.append(index(order_.positionOf(ids[std::size_t(i)]), before[i].column()));
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

}  // namespace lockscope::ui
