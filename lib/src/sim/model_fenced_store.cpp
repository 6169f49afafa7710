#include "lockscope/sim/fenced_resource.h"

namespace lockscope::sim {

bool ModelFencedStore::write(std::string_view resource, std::string_view body, std::int64_t fence) {
    // Same rule as FencedStore: UPDATE ... WHERE fence < ?; the first write creates the row.
    auto it = rows_.find(resource);
    if (it != rows_.end() && it->second.fence >= fence) return false;
    rows_[std::string(resource)] = Row{std::string(body), fence};
    return true;
}

bool ModelFencedStore::claimOnce(std::string_view key) {
    return claims_.emplace(std::string(key)).second;
}

void ModelFencedStore::overwrite(std::string_view resource, std::string_view body) {
    rows_[std::string(resource)].body = std::string(body);
}

std::int64_t ModelFencedStore::issueToken(std::string_view resource) {
    auto it = tokens_.find(resource);
    if (it == tokens_.end()) it = tokens_.emplace(std::string(resource), 0).first;
    return ++it->second;
}

std::int64_t ModelFencedStore::lastFence(std::string_view resource) const {
    auto it = rows_.find(resource);
    return it == rows_.end() ? 0 : it->second.fence;
}

}  // namespace lockscope::sim
