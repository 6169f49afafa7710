#pragma once
// The display order of the lock table's rows, kept apart from the rows themselves: rows
// live in stable slots (ids), and this maps position <-> id. Re-sorting after an update
// compares only the rows that changed (k log n comparisons) and rewrites only the span between
// the first and the last place a changed row leaves or lands, and rows to remove are
// first moved to the tail, so a model announces any change with one layout change and at most one
// contiguous insert or removal, whatever the number of rows. With a million rows a view pays
// O(n) per signal, so the number of signals is what matters.

#include <functional>
#include <utility>
#include <vector>

namespace lockscope::ui {

class LockRowOrder {
  public:
    using Less = std::function<bool(int leftId, int rightId)>;

    int size() const { return int(ids_.size()); }
    int idAt(int position) const { return ids_[std::size_t(position)]; }
    int positionOf(int id) const { return positions_[std::size_t(id)]; }

    // New ids go to the end, in the order given.
    void append(const std::vector<int>& ids);
    // Whether every id still sits between neighbours that do not sort after/before it
    // (then the whole order holds, since only these ids changed).
    bool inOrder(const std::vector<int>& ids, const Less& less) const;
    void sortAll(const Less& less);
    // Moves these ids to where they now belong; the others keep their relative order.
    void resort(std::vector<int> ids, const Less& less);
    // Whether these ids are already the last ones (nothing to move before removing them).
    bool atTail(const std::vector<int>& ids) const;
    // Moves these ids to the end, keeping the relative order of everything.
    void moveToTail(const std::vector<int>& ids);
    void popTail(int count);

  private:
    // Positions [from, to) after their ids moved.
    void renumber(int from, int to);
    // The positions [first, last) a re-sort of these ids (sorted) rewrites.
    std::pair<int, int> touchedSpan(const std::vector<int>& sortedIds, const Less& less) const;
    std::vector<bool> marks(const std::vector<int>& ids) const;

    std::vector<int> ids_;        // position -> id
    std::vector<int> positions_;  // id -> position, -1 for an id not in the order
    std::vector<int> scratch_;    // resort()'s rows that stay in its span, reused between calls
};

}  // namespace lockscope::ui
