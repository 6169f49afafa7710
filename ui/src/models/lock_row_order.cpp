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
    renumber(0);
}

void LockRowOrder::resort(std::vector<int> ids, const Less& less) {
    int firstTouched = size();
    for (int id : ids) firstTouched = std::min(firstTouched, positionOf(id));
    const std::vector<bool> moving = marks(ids);
    // Into a buffer kept between calls, as ids_ keeps its own: a fresh 4 MB vector per
    // re-sort at a million rows spent more time in page faults than in the copy.
    std::vector<int>& staying = scratch_;
    staying.clear();
    staying.reserve(ids_.size());
    std::copy_if(ids_.begin(), ids_.end(), std::back_inserter(staying),
                 [&](int id) { return !moving[std::size_t(id)]; });
    std::stable_sort(ids.begin(), ids.end(), less);
    // Each moved id finds its place among the others by a galloping search from the last
    // place found, and the rest is copied: about k log(n/k) comparisons where a merge makes n
    // and k binary searches k log n, each reading two rows far apart in memory.
    ids_.clear();
    ids_.reserve(staying.size() + ids.size());
    auto from = staying.begin();
    for (int id : ids) {
        auto at = gallop(from, staying.end(), id, less);
        ids_.insert(ids_.end(), from, at);
        firstTouched = std::min(firstTouched, int(ids_.size()));
        ids_.push_back(id);
        from = at;
    }
    ids_.insert(ids_.end(), from, staying.end());
    renumber(firstTouched);
}

bool LockRowOrder::atTail(const std::vector<int>& ids) const {
    const int first = size() - int(ids.size());
    return std::all_of(ids.begin(), ids.end(), [&](int id) { return positionOf(id) >= first; });
}

void LockRowOrder::moveToTail(const std::vector<int>& ids) {
    const std::vector<bool> moving = marks(ids);
    std::stable_partition(ids_.begin(), ids_.end(),
                          [&](int id) { return !moving[std::size_t(id)]; });
    renumber(0);
}

void LockRowOrder::popTail(int count) {
    for (int i = 0; i < count; ++i) {
        positions_[std::size_t(ids_.back())] = -1;
        ids_.pop_back();
    }
}

void LockRowOrder::renumber(int from) {
    for (auto p = std::size_t(from); p < ids_.size(); ++p)
        positions_[std::size_t(ids_[p])] = int(p);
}

std::vector<bool> LockRowOrder::marks(const std::vector<int>& ids) const {
    std::vector<bool> marked(positions_.size(), false);
    for (int id : ids) marked[std::size_t(id)] = true;
    return marked;
}

}  // namespace lockscope::ui
