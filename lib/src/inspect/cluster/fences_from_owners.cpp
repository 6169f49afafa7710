#include "lockscope/inspect/cluster/fences_from_owners.h"

#include <map>

#include "inspect/annotator_replies.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/hash_slot.h"

namespace lockscope::inspect {
namespace {

// The indexes of the keys of each slot.
using SlotKeys = std::map<int, std::vector<std::size_t>>;

// Reads the counters of the slots one node serves: one MGET per slot, in one pipeline.
void readOnOwner(ClusterRouter& router, const ClusterNode& owner, const SlotKeys& slots,
                 const std::vector<std::string>& fenceKeys, FenceReads& reads) {
    std::vector<std::vector<std::string>> mgets;
    for (const auto& [slot, indexes] : slots) {
        auto& mget = mgets.emplace_back(std::vector<std::string>{"MGET"});
        for (std::size_t i : indexes) mget.push_back(fenceKeys[i]);
    }
    const Endpoint at = router.endpointOf(owner);
    try {
        const auto replies = router.connectionTo(at).pipeline(mgets);
        std::size_t group = 0;
        for (const auto& [slot, indexes] : slots) {
            const Reply& values = replies[group++];
            if (values.isError()) {
                // The slot moved since the topology was asked: read there next time.
                if (movedAway(values)) router.noteRedirect();
                reads.unread.push_back("slot " + std::to_string(slot) + " on " + at.display() +
                                       ": " + std::string(values.text()));
                continue;
            }
            for (std::size_t j = 0; j < indexes.size(); ++j)
                reads.values[indexes[j]] = parseFence(values[j]);
        }
    } catch (const Error& e) {
        reads.unread.push_back(at.display() + ": " + e.what());
    }
}

}  // namespace

FenceReads readFencesFromOwners(ClusterRouter& router, const std::vector<std::string>& fenceKeys) {
    FenceReads reads;
    reads.values.resize(fenceKeys.size());
    std::map<const ClusterNode*, SlotKeys> byOwner;
    std::map<int, bool> ownerless;
    for (std::size_t i = 0; i < fenceKeys.size(); ++i) {
        const int slot = keyHashSlot(fenceKeys[i]);
        if (const ClusterNode* owner = router.topology().ownerOfSlot(slot))
            byOwner[owner][slot].push_back(i);
        else
            ownerless[slot] = true;
    }
    for (const auto& [slot, unused] : ownerless)
        reads.unread.push_back("slot " + std::to_string(slot) + ": no node serves it");
    for (const auto& [owner, slots] : byOwner) readOnOwner(router, *owner, slots, fenceKeys, reads);
    return reads;
}

}  // namespace lockscope::inspect
