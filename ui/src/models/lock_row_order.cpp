#include "models/lock_row_order.h"

#include <algorithm>

namespace lockscope::ui {

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
    std::vector<int> staying = std::move(ids_);
    std::erase_if(staying, [&](int id) { return moving[std::size_t(id)]; });
    std::stable_sort(ids.begin(), ids.end(), less);
    // Each moved id finds its place among the others by binary search, and the rest is
    // copied: k log n comparisons where a merge makes n, each reading two rows far apart in
    // memory (tens of milliseconds for a million rows).
    ids_.clear();
    ids_.reserve(staying.size() + ids.size());
    auto from = staying.begin();
    for (int id : ids) {
        auto at = std::upper_bound(from, staying.end(), id, less);
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
