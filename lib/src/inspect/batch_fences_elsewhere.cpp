// The annotator's fences in another slot than their lock on a cluster node (lock:name /
// fence:name without a hash tag): never asked of the lock's node, which would answer MOVED
// on every poll, but of the node that serves their slot, once per batch.
#include "batch_annotator.h"
#include "lockscope/inspect/cluster/fences_from_owners.h"
#include "lockscope/inspect/hash_slot.h"

namespace lockscope::inspect {

bool BatchAnnotator::fenceElsewhere(std::string_view key, std::string_view fence) const {
    return options_.clusterNode && keyHashSlot(key) != keyHashSlot(fence);
}

void BatchAnnotator::readFencesElsewhere(std::vector<LockRecord>& records, std::size_t from) {
    if (!options_.clusterNode || !options_.fencesElsewhere) return;
    std::vector<std::string> keys;
    std::vector<std::size_t> of;  // per fence key: its record
    for (std::size_t i = from; i < records.size(); ++i) {
        if (records[i].fence) continue;
        auto fence = fenceKeyFor(records[i].key, options_.layout);
        if (!fence || !fenceElsewhere(records[i].key, *fence)) continue;
        keys.push_back(std::move(*fence));
        of.push_back(i);
    }
    if (keys.empty()) return;
    FenceReads reads = options_.fencesElsewhere->read(keys);
    for (std::size_t k = 0; k < keys.size(); ++k) records[of[k]].fence = reads.values[k];
    for (const auto& line : reads.unread) note("fence counters not read: " + line);
}

}  // namespace lockscope::inspect
