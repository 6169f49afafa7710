#pragma once
// Lock keys for cluster tests: one per hash slot, or several on one node or one slot, written
// with a pipeline to the node that serves them.

#include <map>
#include <string>
#include <vector>

#include "cluster_fixture.h"
#include "lockscope/inspect/hash_slot.h"

namespace lockscope::testing {

// One "lock:{kN}" key for every one of the 16384 slots.
inline std::vector<std::string> oneKeyPerSlot() {
    std::vector<std::string> keys(16384);
    std::size_t filled = 0;
    for (int i = 0; filled < keys.size(); ++i) {
        std::string key = "lock:{k" + std::to_string(i) + "}";
        auto& at = keys[inspect::keyHashSlot(key)];
        if (at.empty()) at = key, ++filled;
    }
    return keys;
}

// The n-th key "lock:{rI}" whose slot the fixture gave to primary `node`.
inline std::string keyOnNode(RedisCluster& cluster, std::size_t node, int n = 0) {
    for (int i = 0;; ++i) {
        std::string key = "lock:{r" + std::to_string(i) + "}";
        if (cluster.primaryFor(key) == node && n-- == 0) return key;
    }
}

// SET key "tok-<key>" PX ttl for every key, on the primary the fixture gave its slot to.
inline void writeLocks(RedisCluster& cluster, const std::vector<std::string>& keys,
                       long long ttlMs = 600000) {
    std::map<std::size_t, std::vector<std::vector<std::string>>> byNode;
    for (const auto& k : keys)
        byNode[cluster.primaryFor(k)].push_back(
            {"SET", k, "tok-" + k, "PX", std::to_string(ttlMs)});
    for (auto& [node, commands] : byNode) {
        Connection c = cluster.connect(node);
        for (std::size_t i = 0; i < commands.size(); i += 1000) {
            std::vector<std::vector<std::string>> part(
                commands.begin() + i, commands.begin() + std::min(commands.size(), i + 1000));
            for (auto& reply : c.pipeline(part))
                if (reply.isError()) throw std::runtime_error(std::string(reply.text()));
        }
    }
}

}  // namespace lockscope::testing
