#include "models/lock_row_order.h"

#include <algorithm>
#include <iterator>

namespace lockscope::ui {
namespace {

// The first position in [from, end) whose id sorts after `id`, found by doubling steps from
// `from` and then a binary search within the last step.
std::vector<int>::iterator gallop(std::vector<int>::iterator from, std::vector<int>::iterator end,
                                  int id, const LockRowOrder::Less& less) {
    std::ptrdiff_t step = 1;
    auto low = from;
    while (step < end - low && !less(id, low[step - 1])) {
        low += step;
        step *= 2;
    }
    return std::upper_bound(low, low + std::min(step, end - low), id, less);
}

}  // namespace

void LockRowOrder::append(const std::vector<int>& ids) {
    for (int id : ids) {
        if (std::size_t(id) >= positions_.size()) positions_.resize(std::size_t(id) + 1, -1);
        positions_[std::size_t(id)] = int(ids_.size());
        ids_.push_back(id);
    }
}

bool LockRowOrder::inOrder(const std::vector<int>& ids, const Less& less) const {
    const int n = size();
    for (int id : ids) {
        const int p = positionOf(id);
        if (p > 0 && less(id, ids_[std::size_t(p - 1)])) return false;
        if (p + 1 < n && less(ids_[std::size_t(p) + 1], id)) return false;
    }
    return true;
}

void LockRowOrder::sortAll(const Less& less) {
    std::stable_sort(ids_.begin(), ids_.end(), less);
    renumber(0, size());
}

void LockRowOrder::resort(std::vector<int> ids, const Less& less) {
    if (ids.empty()) return;
    const std::vector<bool> moving = marks(ids);
    std::stable_sort(ids.begin(), ids.end(), less);
    // Only the span from the first place a moved row leaves or lands to the last changes: the
    // rows before and after it stay where they are, in order. A renewal near the top of a
    // million rows rewrites a few hundred positions, not the million after it (a re-sort
    // that copied and renumbered every row after the first touched one took 16 ms per turn
    // while a rescan streamed in, the window's longest stall).
    const auto [first, last] = touchedSpan(ids, less);
    std::vector<int>& staying = scratch_;
    staying.clear();
    std::copy_if(ids_.begin() + first, ids_.begin() + last, std::back_inserter(staying),
                 [&](int id) { return !moving[std::size_t(id)]; });
    // Each moved id finds its place among the others by a galloping search from the last
    // place found, and the rest is copied: about k log(m/k) comparisons where a merge makes m
    // and k binary searches k log m, each reading two rows far apart in memory.
    auto out = ids_.begin() + first;
    auto from = staying.begin();
    for (int id : ids) {
        auto at = gallop(from, staying.end(), id, less);
        out = std::copy(from, at, out);
        *out++ = id;
        from = at;
    }
    std::copy(from, staying.end(), out);
    renumber(first, last);
}

std::pair<int, int> LockRowOrder::touchedSpan(const std::vector<int>& sortedIds,
                                              const Less& less) const {
    int low = size();
    int high = -1;
    for (int id : sortedIds) {
        low = std::min(low, positionOf(id));
        high = std::max(high, positionOf(id));
    }
    // The rows outside [low, high] all stay and are in order among themselves, so where the
    // smallest moved row lands before `low`, and the largest after `high`, is a binary search
    // away.
    const auto begin = ids_.begin();
    const auto smallestLands = std::upper_bound(begin, begin + low, sortedIds.front(), less);
    const auto largestLands =
        std::upper_bound(begin + high + 1, ids_.end(), sortedIds.back(), less);
    return {int(smallestLands - begin), int(largestLands - begin)};
}

bool LockRowOrder::atTail(const std::vector<int>& ids) const {
    const int first = size() - int(ids.size());
    return std::all_of(ids.begin(), ids.end(), [&](int id) { return positionOf(id) >= first; });
}

void LockRowOrder::moveToTail(const std::vector<int>& ids) {
    const std::vector<bool> moving = marks(ids);
    std::stable_partition(ids_.begin(), ids_.end(),
                          [&](int id) { return !moving[std::size_t(id)]; });
    renumber(0, size());
}

void LockRowOrder::popTail(int count) {
    for (int i = 0; i < count; ++i) {
        positions_[std::size_t(ids_.back())] = -1;
        ids_.pop_back();
    }
}

void LockRowOrder::renumber(int from, int to) {
    for (auto p = std::size_t(from); p < std::size_t(to); ++p)
        positions_[std::size_t(ids_[p])] = int(p);
}

std::vector<bool> LockRowOrder::marks(const std::vector<int>& ids) const {
    std::vector<bool> marked(positions_.size(), false);
    for (int id : ids) marked[std::size_t(id)] = true;
    return marked;
}

}  // namespace lockscope::ui
