#pragma once
// Putting the primaries' scan results together, each key once and sorted by key, without a
// node per key in a std::map: each node's records are sorted once (on its own scan thread),
// then merged k-way; the slots read again after a migration replace theirs in one pass.

#include <bitset>
#include <vector>

#include "lockscope/inspect/cluster_topology.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

using SlotSet = std::bitset<kClusterSlots>;

// Sorts one node's records by key; of equal keys (a SCAN may return a key twice) the first
// stays first.
void sortByKey(std::vector<LockRecord>& records);

// Merges records sorted by sortByKey into one list sorted by key (std::string order), each
// key once: the first batch's record of a key wins, then the first within a batch (a key
// seen on two nodes because its slot moved during the scan). The batches are emptied.
std::vector<LockRecord> mergeSortedByKey(std::vector<std::vector<LockRecord>>& batches);

// Drops the records of the given slots from the sorted list and puts `fresh` (sorted by key,
// each key once, all of those slots) in their place, keeping the list sorted.
void replaceSlots(std::vector<LockRecord>& sorted, const SlotSet& slots,
                  std::vector<LockRecord> fresh);

}  // namespace lockscope::inspect
