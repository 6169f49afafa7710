// Interval bookkeeping and the rule for a lost lock, shared by StepContext and Simulator.
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

void openInterval(World& world, Interval interval) {
    world.openIntervals.push_back(std::move(interval));
}

void closeInterval(World& world, Recording& recording, LaneId lane, IntervalKind kind, VirtualMs at,
                   int node) {
    auto& open = world.openIntervals;
    for (auto it = open.begin(); it != open.end(); ++it) {
        if (it->lane != lane || it->kind != kind || it->node != node) continue;
        it->to = at;
        recording.intervals.push_back(*it);
        open.erase(it);
        return;
    }
}

void recordLockLost(World& world, Recording& recording, int node, const std::string& how) {
    const LaneId keyLane = world.node(node).keyLane;
    Holding* h = world.currentHolding(node);
    if (!h) return;
    h->current = false;
    h->lostAt = world.now;
    h->lostHow = how;
    closeInterval(world, recording, keyLane, IntervalKind::Ownership, world.now, node);
    closeInterval(world, recording, keyLane, IntervalKind::NoTtl, world.now, node);
    const Actor* holder = world.actor(h->holder);
    if (!holder) return;
    closeInterval(world, recording, holder->lane(), IntervalKind::Ownership, world.now, node);
    const InstanceRun* run = world.run(h->holder);
    if (run && run->state == RunState::Running) {
        // The holder still works, now without the lock: the band the lesson is about.
        ++world.outcome.leaseLapses;
        openInterval(world, Interval{holder->lane(), IntervalKind::LeaseLapsed, world.now, 0,
                                     "lock " + how, h->token, h->fence, false});
    }
}

}  // namespace lockscope::sim
