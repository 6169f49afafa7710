#pragma once
// Keeping each key once in the primaries' scan results without sorting or joining a million
// records (sorting them cost each scan thread a fifth of its CPU, joining them a fifth of
// the rest): a SCAN may return a key twice on one node (its table grew or shrank meanwhile),
// and a key can be seen on two nodes only in a slot that moved during the scan.

#include <bitset>
#include <vector>

#include "lockscope/inspect/cluster/cluster_topology.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

using SlotSet = std::bitset<kClusterSlots>;

// Drops each record whose key came earlier in the list (the first stays), keeping the order.
void dropRepeatedKeys(std::vector<LockRecord>& records);

// Drops from each node's records the keys an earlier node in the list returned (a key seen
// on two nodes: its slot moved during the scan), keeping the earlier node's record.
void keepFirstNodesRecords(std::vector<std::vector<LockRecord>>& nodes);

// Drops the records of the given slots from every part.
void dropSlots(std::vector<std::vector<LockRecord>>& parts, const SlotSet& slots);

}  // namespace lockscope::inspect
