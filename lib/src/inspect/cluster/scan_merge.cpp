#include "scan_merge.h"

#include <algorithm>
#include <queue>
#include <utility>

namespace lockscope::inspect {
namespace {

bool keyLess(const LockRecord& a, const LockRecord& b) {
    return a.key < b.key;
}

}  // namespace

void sortByKey(std::vector<LockRecord>& records) {
    std::stable_sort(records.begin(), records.end(), keyLess);
}

std::vector<LockRecord> mergeSortedByKey(std::vector<std::vector<LockRecord>>& batches) {
    std::size_t total = 0;
    for (const auto& b : batches) total += b.size();
    std::vector<LockRecord> merged;
    merged.reserve(total);
    // The head of each batch, by (key, batch): a tie goes to the earlier batch.
    using Head = std::pair<std::size_t, std::size_t>;  // batch, position
    auto after = [&](const Head& a, const Head& b) {
        const std::string& ka = batches[a.first][a.second].key;
        const std::string& kb = batches[b.first][b.second].key;
        const int c = ka.compare(kb);
        return c != 0 ? c > 0 : a.first > b.first;
    };
    std::priority_queue<Head, std::vector<Head>, decltype(after)> heads(after);
    for (std::size_t b = 0; b < batches.size(); ++b)
        if (!batches[b].empty()) heads.emplace(b, 0);
    while (!heads.empty()) {
        auto [b, at] = heads.top();
        heads.pop();
        LockRecord& r = batches[b][at];
        if (merged.empty() || merged.back().key != r.key) merged.push_back(std::move(r));
        if (at + 1 < batches[b].size()) heads.emplace(b, at + 1);
    }
    for (auto& b : batches) b.clear();
    return merged;
}

void replaceSlots(std::vector<LockRecord>& sorted, const SlotSet& slots,
                  std::vector<LockRecord> fresh) {
    std::erase_if(sorted, [&](const LockRecord& r) {
        return r.slot >= 0 && r.slot < kClusterSlots && slots.test(std::size_t(r.slot));
    });
    const auto middle = static_cast<std::ptrdiff_t>(sorted.size());
    sorted.insert(sorted.end(), std::make_move_iterator(fresh.begin()),
                  std::make_move_iterator(fresh.end()));
    std::inplace_merge(sorted.begin(), sorted.begin() + middle, sorted.end(), keyLess);
}

}  // namespace lockscope::inspect
