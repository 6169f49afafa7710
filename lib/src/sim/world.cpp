#include "lockscope/sim/world.h"

#include <algorithm>

namespace lockscope::sim {

std::string describeLoss(const Holding& h) {
    return (h.lostHow == "expired" ? "expired" : "was " + h.lostHow) + " at " +
           formatVirtualTime(h.lostAt);
}

Actor* World::actor(const std::string& name) {
    for (auto& a : actors)
        if (a->name() == name) return a.get();
    return nullptr;
}

const Actor* World::actor(const std::string& name) const {
    for (const auto& a : actors)
        if (a->name() == name) return a.get();
    return nullptr;
}

namespace {

// A key's last holding, when it is still current: the histories of several keys interleave.
template <typename Holdings>
auto currentOf(Holdings& holdings, const std::string& key) -> decltype(&holdings.back()) {
    for (auto it = holdings.rbegin(); it != holdings.rend(); ++it)
        if (it->key == key) return it->current ? &*it : nullptr;
    return nullptr;
}

}  // namespace

Holding* RedisNode::currentHolding(const std::string& key) {
    return currentOf(holdings, key);
}

const Holding* RedisNode::currentHolding(const std::string& key) const {
    return currentOf(holdings, key);
}

bool World::recordsHolders(const std::string& key) const {
    if (key.empty()) return false;
    return key == lockKey || std::find(heldKeys.begin(), heldKeys.end(), key) != heldKeys.end();
}

InstanceRun* World::run(const std::string& name) {
    for (auto it = runs.rbegin(); it != runs.rend(); ++it)
        if (it->actor == name) return &*it;
    return nullptr;
}

const InstanceRun* World::run(const std::string& name) const {
    for (auto it = runs.rbegin(); it != runs.rend(); ++it)
        if (it->actor == name) return &*it;
    return nullptr;
}

const Holding* RedisNode::lastHoldingOf(const std::string& name, const std::string& key) const {
    for (auto it = holdings.rbegin(); it != holdings.rend(); ++it)
        if (it->holder == name && it->key == key) return &*it;
    return nullptr;
}

}  // namespace lockscope::sim
