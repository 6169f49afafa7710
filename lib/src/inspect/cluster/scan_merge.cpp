#include "scan_merge.h"

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
    // The views point into the records' keys, which stay put until every key is seen.
    std::unordered_set<std::string_view> seen;
    seen.reserve(records.size());
    std::vector<bool> repeated(records.size(), false);
    bool any = false;
    for (std::size_t i = 0; i < records.size(); ++i)
        if (!seen.insert(records[i].key).second) repeated[i] = any = true;
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
