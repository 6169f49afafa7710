#include "lockscope/sim/world.h"

#include <ranges>

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
    for (auto& r : std::views::reverse(runs))
        if (r.actor == name) return &r;
    return nullptr;
}

const InstanceRun* World::run(const std::string& name) const {
    for (auto& r : std::views::reverse(runs))
        if (r.actor == name) return &r;
    return nullptr;
}

const Holding* RedisNode::lastHoldingOf(const std::string& name) const {
    for (const Holding& h : std::views::reverse(holdings))
        if (h.holder == name) return &h;
    return nullptr;
}

}  // namespace lockscope::sim
