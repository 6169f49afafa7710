#include "lockscope/inspect/resource_groups.h"

#include <set>
#include <unordered_map>

namespace lockscope::inspect {

std::vector<ResourceGroup> groupByResource(const std::vector<LockRecord>& records) {
    std::vector<ResourceGroup> groups;
    std::unordered_map<std::string, std::size_t> index;
    std::vector<std::set<std::string>> instances;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const LockRecord& r = records[i];
        if (r.kind == LockKind::NotALock) continue;
        std::string resource(r.resource());
        auto [it, added] = index.emplace(resource, groups.size());
        if (added) {
            groups.push_back(ResourceGroup{std::move(resource), {}, 0, true});
            instances.emplace_back();
        }
        ResourceGroup& g = groups[it->second];
        if (!g.records.empty() && !records[g.records.front()].sameHolder(r)) g.sameHolder = false;
        g.records.push_back(i);
        instances[it->second].insert(r.instanceName());
        g.instances = instances[it->second].size();
    }
    return groups;
}

}  // namespace lockscope::inspect
