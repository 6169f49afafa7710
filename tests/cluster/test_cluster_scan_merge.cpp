// The cluster scan's merge of the primaries' records (lib/src/inspect/cluster/scan_merge):
// sorted by key as a std::map<std::string, ...> sorted them before, each key once with the
// first node's record, and the slots read again after a migration put back in order.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "inspect/cluster/scan_merge.h"
#include "lockscope/inspect/hash_slot.h"

namespace lockscope::inspect {
namespace {

LockRecord record(std::string key, std::string token) {
    LockRecord r;
    r.slot = static_cast<std::int16_t>(keyHashSlot(key));
    r.key = std::move(key);
    r.token = std::move(token);
    return r;
}

std::vector<std::string> keysOf(const std::vector<LockRecord>& records) {
    std::vector<std::string> keys;
    for (const auto& r : records) keys.push_back(r.key);
    return keys;
}

// The old merge, kept here as the reference: try_emplace in node order into a std::map.
std::vector<LockRecord> mergedByMap(const std::vector<std::vector<LockRecord>>& batches) {
    std::map<std::string, LockRecord> byKey;
    for (const auto& b : batches)
        for (const auto& r : b) byKey.try_emplace(r.key, r);
    std::vector<LockRecord> out;
    for (auto& [key, r] : byKey) out.push_back(std::move(r));
    return out;
}

TEST(ClusterScanMerge, MatchesTheMapOrderAndKeepsTheFirstNodesRecordOfAKey) {
    std::mt19937 rng(7);  // test-only randomness: keys, duplicates and their order
    std::vector<std::vector<LockRecord>> batches(3);
    for (int i = 0; i < 3000; ++i) {
        // Bytes above 0x7f too: std::string orders them after ASCII, as the map did.
        std::string key = "lock:" + std::to_string(rng() % 2000);
        if (i % 7 == 0) key += static_cast<char>(0x80 + rng() % 0x7f);
        batches[rng() % 3].push_back(record(key, "node-" + std::to_string(i)));
    }
    // One key seen by the last node first in time but by the first node in node order.
    batches[2].push_back(record("lock:moved", "seen-by-node-2"));
    batches[0].push_back(record("lock:moved", "seen-by-node-0"));
    const std::vector<LockRecord> expected = mergedByMap(batches);

    for (auto& b : batches) sortByKey(b);
    const std::vector<LockRecord> merged = mergeSortedByKey(batches);
    ASSERT_EQ(keysOf(merged), keysOf(expected));
    for (std::size_t i = 0; i < merged.size(); ++i)
        EXPECT_EQ(merged[i].token, expected[i].token) << merged[i].key;
    for (const auto& b : batches) EXPECT_TRUE(b.empty());
}

TEST(ClusterScanMerge, TheSlotsReadAgainReplaceTheirRecordsInOrder) {
    std::vector<std::vector<LockRecord>> batches(2);
    for (int i = 0; i < 200; ++i)
        batches[std::size_t(i % 2)].push_back(
            record("lock:{k" + std::to_string(i) + "}", "scanned"));
    for (auto& b : batches) sortByKey(b);
    std::vector<LockRecord> merged = mergeSortedByKey(batches);

    const std::string moving = "lock:{k42}";
    const int slot = keyHashSlot(moving);
    SlotSet slots;
    slots.set(std::size_t(slot));
    std::vector<LockRecord> fresh{record("lock:{k42}", "read-again"),
                                  record("lock:{k42}:extra", "new-on-the-importing-node")};
    sortByKey(fresh);
    replaceSlots(merged, slots, std::move(fresh));

    EXPECT_TRUE(std::is_sorted(merged.begin(), merged.end(),
                               [](const auto& a, const auto& b) { return a.key < b.key; }));
    EXPECT_EQ(merged.size(), 201u);
    for (const auto& r : merged) {
        if (r.key == moving) {
            EXPECT_EQ(r.token, "read-again");
        } else if (r.key == "lock:{k42}:extra") {
            EXPECT_EQ(r.slot, slot);
        } else {
            EXPECT_NE(r.slot, slot) << r.key;
            EXPECT_EQ(r.token, "scanned") << r.key;
        }
    }
}

}  // namespace
}  // namespace lockscope::inspect
