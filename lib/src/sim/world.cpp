#include "lockscope/sim/world.h"

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

Holding* RedisNode::currentHolding() {
    return !holdings.empty() && holdings.back().current ? &holdings.back() : nullptr;
}

const Holding* RedisNode::currentHolding() const {
    return !holdings.empty() && holdings.back().current ? &holdings.back() : nullptr;
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

const Holding* RedisNode::lastHoldingOf(const std::string& name) const {
    for (auto it = holdings.rbegin(); it != holdings.rend(); ++it)
        if (it->holder == name) return &*it;
    return nullptr;
}

}  // namespace lockscope::sim
