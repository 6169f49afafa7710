#include "scan_merge.h"

#include <algorithm>
#include <functional>
#include <string_view>
#include <unordered_set>
#include <utility>

namespace lockscope::inspect {
namespace {

bool inSlots(const LockRecord& r, const SlotSet& slots) {
    return r.slot >= 0 && r.slot < kClusterSlots && slots.test(std::size_t(r.slot));
}

// Keeps the records whose flag is false, in order.
void keepUnflagged(std::vector<LockRecord>& records, const std::vector<bool>& drop) {
    std::size_t kept = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
        if (drop[i]) continue;
        if (kept != i) records[kept] = std::move(records[i]);
        ++kept;
    }
    records.resize(kept);
}

}  // namespace

void dropRepeatedKeys(std::vector<LockRecord>& records) {
    // (hash, position) pairs sorted put equal keys side by side, earliest first, without a
    // heap node per key: a std::unordered_set of a million keys cost a scan thread a fifth
    // of its CPU, in cache misses.
    const std::size_t n = records.size();
    std::vector<std::pair<std::size_t, std::size_t>> byHash(n);
    for (std::size_t i = 0; i < n; ++i)
        byHash[i] = {std::hash<std::string_view>{}(records[i].key), i};
    std::sort(byHash.begin(), byHash.end());
    std::vector<bool> repeated(n, false);
    bool any = false;
    for (std::size_t from = 0; from < n;) {
        std::size_t to = from + 1;
        while (to < n && byHash[to].first == byHash[from].first) ++to;
        // One hash: a repeat or a collision (a run of one or two, in practice).
        for (std::size_t a = from + 1; a < to; ++a) {
            const std::string& key = records[byHash[a].second].key;
            for (std::size_t b = from; b < a; ++b)
                if (!repeated[byHash[b].second] && records[byHash[b].second].key == key) {
                    repeated[byHash[a].second] = any = true;
                    break;
                }
        }
        from = to;
    }
    if (any) keepUnflagged(records, repeated);
}

void keepFirstNodesRecords(std::vector<std::vector<LockRecord>>& nodes) {
    // A key on two nodes hashes to a slot both returned records of: only those slots'
    // keys are compared.
    SlotSet seenOnce, seenTwice;
    for (const auto& records : nodes) {
        SlotSet mine;
        for (const auto& r : records)
            if (r.slot >= 0 && r.slot < kClusterSlots) mine.set(std::size_t(r.slot));
        seenTwice |= seenOnce & mine;
        seenOnce |= mine;
    }
    if (seenTwice.none()) return;
    std::unordered_set<std::string_view> seen;  // views into records not yet moved
    std::vector<std::vector<bool>> drop(nodes.size());
    for (std::size_t n = 0; n < nodes.size(); ++n) {
        drop[n].assign(nodes[n].size(), false);
        for (std::size_t i = 0; i < nodes[n].size(); ++i)
            if (inSlots(nodes[n][i], seenTwice) && !seen.insert(nodes[n][i].key).second)
                drop[n][i] = true;
    }
    for (std::size_t n = 0; n < nodes.size(); ++n) keepUnflagged(nodes[n], drop[n]);
}

void dropSlots(std::vector<std::vector<LockRecord>>& parts, const SlotSet& slots) {
    for (auto& records : parts)
        std::erase_if(records, [&](const LockRecord& r) { return inSlots(r, slots); });
}

}  // namespace lockscope::inspect
