// Each key once in the cluster scan's results (lib/src/inspect/cluster/scan_merge): the
// first node's record of a key seen on two nodes, a key SCAN returned twice on one node kept
// once, the records of slots read again after a migration dropped; scan order is kept.
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

// The reference: walk every record in node order and keep a key's first sighting.
std::vector<LockRecord> firstSightings(const std::vector<std::vector<LockRecord>>& batches) {
    std::map<std::string, bool> seen;
    std::vector<LockRecord> out;
    for (const auto& b : batches)
        for (const auto& r : b)
            if (seen.try_emplace(r.key, true).second) out.push_back(r);
    return out;
}

TEST(ClusterScanMerge, DropRepeatedKeysKeepsTheFirstSightingInScanOrder) {
    std::vector<LockRecord> records{record("lock:b", "1"), record("lock:a", "2"),
                                    record("lock:b", "3"), record("lock:c", "4"),
                                    record("lock:a", "5")};
    dropRepeatedKeys(records);
    EXPECT_EQ(keysOf(records), (std::vector<std::string>{"lock:b", "lock:a", "lock:c"}));
    EXPECT_EQ(records[0].token, "1");
    EXPECT_EQ(records[1].token, "2");
    std::vector<LockRecord> none;
    dropRepeatedKeys(none);
    EXPECT_TRUE(none.empty());

    std::mt19937 rng(11);  // test-only randomness: many repeats, in any order
    std::vector<LockRecord> many;
    for (int i = 0; i < 5000; ++i)
        many.push_back(record("lock:" + std::to_string(rng() % 1500), std::to_string(i)));
    const std::vector<LockRecord> expected = firstSightings({many});
    dropRepeatedKeys(many);
    ASSERT_EQ(keysOf(many), keysOf(expected));
    for (std::size_t i = 0; i < many.size(); ++i) EXPECT_EQ(many[i].token, expected[i].token);
}

TEST(ClusterScanMerge, AKeyOnTwoNodesKeepsTheEarlierNodesRecord) {
    std::mt19937 rng(7);  // test-only randomness: keys, duplicates and their order
    std::vector<std::vector<LockRecord>> nodes(3);
    for (int i = 0; i < 3000; ++i) {
        // Bytes above 0x7f too, and keys that share a slot across nodes.
        std::string key = "lock:" + std::to_string(rng() % 2000);
        if (i % 7 == 0) key += static_cast<char>(0x80 + rng() % 0x7f);
        nodes[rng() % 3].push_back(record(key, "node-" + std::to_string(i)));
    }
    // One key seen by the last node first in time but by the first node in node order.
    nodes[2].push_back(record("lock:moved", "seen-by-node-2"));
    nodes[0].push_back(record("lock:moved", "seen-by-node-0"));
    for (auto& n : nodes) dropRepeatedKeys(n);
    const std::vector<LockRecord> expected = firstSightings(nodes);

    keepFirstNodesRecords(nodes);
    std::vector<LockRecord> kept;
    for (const auto& n : nodes) kept.insert(kept.end(), n.begin(), n.end());
    ASSERT_EQ(keysOf(kept), keysOf(expected));
    for (std::size_t i = 0; i < kept.size(); ++i)
        EXPECT_EQ(kept[i].token, expected[i].token) << kept[i].key;
}

TEST(ClusterScanMerge, NodesWithoutSharedSlotsKeepEveryRecord) {
    std::vector<std::vector<LockRecord>> nodes(2);
    nodes[0] = {record("lock:{a}", "x"), record("lock:{a}:2", "y")};
    nodes[1] = {record("lock:{b}", "z")};
    ASSERT_NE(nodes[0][0].slot, nodes[1][0].slot);
    keepFirstNodesRecords(nodes);
    EXPECT_EQ(keysOf(nodes[0]), (std::vector<std::string>{"lock:{a}", "lock:{a}:2"}));
    EXPECT_EQ(keysOf(nodes[1]), (std::vector<std::string>{"lock:{b}"}));
}

TEST(ClusterScanMerge, DropSlotsRemovesOnlyThoseSlotsRecordsFromEveryPart) {
    std::vector<std::vector<LockRecord>> parts(2);
    for (int i = 0; i < 200; ++i)
        parts[std::size_t(i % 2)].push_back(record("lock:{k" + std::to_string(i) + "}", "scanned"));
    const int slot = keyHashSlot("lock:{k42}");
    parts[1].push_back(record("lock:{k42}:copy", "also-in-the-slot"));
    SlotSet slots;
    slots.set(std::size_t(slot));
    dropSlots(parts, slots);

    EXPECT_EQ(parts[0].size() + parts[1].size(), 199u);
    for (const auto& part : parts)
        for (const auto& r : part) {
            EXPECT_NE(r.slot, slot) << r.key;
            EXPECT_EQ(r.token, "scanned") << r.key;
        }
}

}  // namespace
}  // namespace lockscope::inspect
