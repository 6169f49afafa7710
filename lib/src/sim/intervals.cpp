// Recording helpers (events, beats), interval bookkeeping and the rule for a lost lock,
// shared by StepContext, the simulator loop and replication.
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

int recordEvent(const World& world, Recording& recording, EventKind kind, LaneId lane,
                const std::string& actor, const std::string& detail) {
    TimelineEvent e;
    e.index = static_cast<int>(recording.events.size());
    e.time = world.now;
    e.lane = lane;
    e.kind = kind;
    e.actor = actor;
    e.detail = detail;
    e.step = world.steps;
    recording.events.push_back(e);
    return e.index;
}

void recordBeat(Recording& recording, int eventIndex, const std::string& narration) {
    TimelineEvent& e = recording.events[eventIndex];
    Beat b;
    b.index = static_cast<int>(recording.beats.size());
    b.time = e.time;
    b.lane = e.lane;
    b.actor = e.actor;
    b.command = e.command;
    b.shown = e.shown.empty() ? e.command : e.shown;
    b.reply = e.reply;
    b.narration = narration;
    b.eventIndex = eventIndex;
    b.step = e.step;
    e.beat = b.index;
    recording.beats.push_back(b);
}

void recordBeat(Recording& recording, int eventIndex, const std::vector<Message>& narration) {
    recordBeat(recording, eventIndex, renderEnglish(narration));
    recording.beats.back().narrationParts = narration;
}

void openInterval(World& world, Interval interval) {
    interval.fromStep = world.steps;
    world.openIntervals.push_back(std::move(interval));
}

void closeInterval(World& world, Recording& recording, LaneId lane, IntervalKind kind, VirtualMs at,
                   int node, const std::string& key) {
    auto& open = world.openIntervals;
    for (auto it = open.begin(); it != open.end(); ++it) {
        if (it->lane != lane || it->kind != kind || it->node != node) continue;
        if (!key.empty() && it->key != key) continue;
        it->to = at;
        it->toStep = world.steps;
        recording.intervals.push_back(*it);
        open.erase(it);
        return;
    }
}

void recordLockLost(World& world, Recording& recording, int node, const std::string& key,
                    const std::string& how) {
    const LaneId keyLane = world.node(node).keyLane;
    Holding* h = world.node(node).currentHolding(key);
    if (!h) return;
    h->current = false;
    h->lostAt = world.now;
    h->lostHow = how;
    closeInterval(world, recording, keyLane, IntervalKind::Ownership, world.now, node, key);
    closeInterval(world, recording, keyLane, IntervalKind::NoTtl, world.now, node, key);
    const Actor* holder = world.actor(h->holder);
    if (!holder) return;
    closeInterval(world, recording, holder->lane(), IntervalKind::Ownership, world.now, node, key);
    const InstanceRun* run = world.run(h->holder);
    if (run && run->state == RunState::Running) {
        // The holder still works, now without the lock: the band the lesson is about.
        ++world.outcome.leaseLapses;
        Interval lapsed{holder->lane(), IntervalKind::LeaseLapsed,
                        world.now,      0,
                        "lock " + how,  h->token,
                        h->fence,       false};
        lapsed.key = key;
        openInterval(world, lapsed);
    }
}

}  // namespace lockscope::sim
