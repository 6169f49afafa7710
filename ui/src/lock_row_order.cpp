#include "lock_row_order.h"

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
        if (p + 1 < n && less(ids_[std::size_t(p + 1)], id)) return false;
    }
    return true;
}

void LockRowOrder::sortAll(const Less& less) {
    std::stable_sort(ids_.begin(), ids_.end(), less);
    renumber(0);
}

void LockRowOrder::resort(std::vector<int> ids, const Less& less) {
    // A comparison reads two rows far apart in memory: a merge costs n of them (tens of ms
    // for a million rows), a binary search log n. Few moved rows are placed one by one.
    constexpr std::size_t kPlaceOneByOne = 64;
    int firstTouched = size();
    for (int id : ids) firstTouched = std::min(firstTouched, positionOf(id));
    const std::vector<bool> moving = marks(ids);
    std::erase_if(ids_, [&](int id) { return moving[std::size_t(id)]; });
    std::stable_sort(ids.begin(), ids.end(), less);
    if (ids.size() <= kPlaceOneByOne) {
        for (int id : ids) {
            auto at = std::upper_bound(ids_.begin(), ids_.end(), id, less);
            firstTouched = std::min(firstTouched, int(at - ids_.begin()));
            ids_.insert(at, id);
        }
        renumber(firstTouched);
        return;
    }
    std::vector<int> staying = std::move(ids_);
    ids_.clear();
    ids_.reserve(staying.size() + ids.size());
    std::merge(staying.begin(), staying.end(), ids.begin(), ids.end(), std::back_inserter(ids_),
               less);
    renumber(0);
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
    for (std::size_t p = std::size_t(from); p < ids_.size(); ++p)
        positions_[std::size_t(ids_[p])] = int(p);
}

std::vector<bool> LockRowOrder::marks(const std::vector<int>& ids) const {
    std::vector<bool> marked(positions_.size(), false);
    for (int id : ids) marked[std::size_t(id)] = true;
    return marked;
}

}  // namespace lockscope::ui
