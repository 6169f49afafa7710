#include "scan_targets.h"

#include <algorithm>

#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/sentinel.h"

namespace lockscope::cli {

std::vector<WatchTarget> primariesToWatch(const InspectorFlags& flags) {
    std::vector<WatchTarget> out;
    for (const auto& endpoint : flags.endpoints) {
        try {
            auto router = std::make_shared<inspect::ClusterRouter>(
                endpoint, connectionOptions(flags, true), flags.clusterAddressing);
            if (!router->isCluster()) {
                out.push_back({endpoint});
                continue;
            }
            auto primaries = router->topology().primaries();
            std::erase_if(primaries, [](const auto* p) { return p->servedSlots.empty(); });
            std::sort(primaries.begin(), primaries.end(), [](const auto* a, const auto* b) {
                return a->servedSlots.front().first < b->servedSlots.front().first;
            });
            for (const auto* p : primaries)
                out.push_back({router->endpointOf(*p), router, p->servedSlots.front().first,
                               inspect::formatSlotRanges(p->servedSlots)});
        } catch (const Error&) {
            out.push_back({endpoint});
        }
    }
    return out;
}

Endpoint endpointToScan(const InspectorFlags& flags, const Endpoint& endpoint,
                        std::vector<std::string>& notes) {
    if (!flags.sentinel || !flags.scanReplicas) return endpoint;
    const std::string service = "\"" + flags.sentinel->service + "\"";
    try {
        auto replicas = discoverReplicas(*flags.sentinel, connectionOptions(flags, true));
        if (!replicas.empty()) {
            notes.push_back("scanned replica " + replicas.front().display() + " of " + service +
                            " (SENTINEL replicas), not the primary " + endpoint.display());
            return replicas.front();
        }
        notes.push_back("no online replica of " + service + ": scanned the primary");
    } catch (const Error& e) {
        notes.push_back("could not list the replicas of " + service + " (" + e.what() +
                        "): scanned the primary");
    }
    return endpoint;
}

}  // namespace lockscope::cli
