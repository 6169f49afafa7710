#include "lockscope/sim/lane_state.h"

#include <algorithm>

namespace lockscope::sim {

namespace {

int keyLaneCount(const Recording& recording) {
    return static_cast<int>(
        std::count_if(recording.lanes.begin(), recording.lanes.end(),
                      [](const Lane& l) { return l.kind == LaneKind::RedisKey; }));
}

bool openOn(const Recording& recording, LaneId lane, IntervalKind kind, int step) {
    return std::any_of(recording.intervals.begin(), recording.intervals.end(),
                       [&](const Interval& i) {
                           return i.lane == lane && i.kind == kind && intervalOpenAt(i, step);
                       });
}

template <typename T>
void sortUnique(std::vector<T>& values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
}

// Whether the instance holds what an open ownership interval of its lane says. A key drawn
// on the node's key lane (the lock key) is held when that lane names it: a key at its
// deadline is gone even if its expiry is announced a step later. A key no lane draws (a
// seat's hold) is held while the interval is open: its expiry closes it at the deadline.
bool ownershipHolds(const Recording& recording, const std::vector<LaneState>& keys,
                    const Lane& lane, const Interval& owned) {
    for (std::size_t k = 0; k < keys.size(); ++k) {
        const Lane& keyLane = recording.lanes[k];
        if (keyLane.kind != LaneKind::RedisKey || keyLane.node != owned.node) continue;
        if (!keyLane.key.empty() && !owned.key.empty() && keyLane.key != owned.key) continue;
        return keys[k].keyExists && keys[k].holder == lane.name;
    }
    return true;
}

// The instance's state, most telling first. Working on after the lock is gone outranks
// holding it only when what is still held is no majority of the key lanes (a Redlock
// client that lost one of five keys still holds the lock).
void deriveInstance(const Recording& recording, const std::vector<LaneState>& keys,
                    const Lane& lane, const StoryPoint& point, LaneState& state) {
    for (const Interval& i : recording.intervals) {
        if (i.lane != state.lane || i.kind != IntervalKind::Ownership ||
            !intervalOpenAt(i, point.step) || !ownershipHolds(recording, keys, lane, i))
            continue;
        state.nodesHeld.push_back(i.node);
        state.keysHeld.push_back(i.key);
    }
    sortUnique(state.nodesHeld);
    sortUnique(state.keysHeld);
    const bool holdsMajority =
        static_cast<int>(state.nodesHeld.size()) * 2 > std::max(1, keyLaneCount(recording));
    auto open = [&](IntervalKind kind) { return openOn(recording, state.lane, kind, point.step); };
    if (open(IntervalKind::Crashed))
        state.instance = InstanceState::Crashed;
    else if (open(IntervalKind::Pause))
        state.instance = InstanceState::Frozen;
    else if (open(IntervalKind::LeaseLapsed) && (!holdsMajority || state.nodesHeld.empty()))
        state.instance = InstanceState::WorksWithoutLock;
    else if (!state.nodesHeld.empty())
        state.instance = InstanceState::HoldsLock;
    else if (open(IntervalKind::JobRun))
        state.instance = InstanceState::Running;
}

// The key lane: its holder from the open ownership interval, its PTTL from the last sample
// of its node taken by this point.
void deriveKey(const Recording& recording, const Lane& lane, const StoryPoint& point,
               LaneState& state) {
    for (const Interval& i : recording.intervals) {
        if (i.lane != lane.id || i.kind != IntervalKind::Ownership ||
            !intervalOpenAt(i, point.step))
            continue;
        state.holder = i.holder;
        state.token = i.token;
        state.fence = i.fence;
    }
    for (const PttlSample& s : recording.pttl)
        if (s.node == lane.node && s.step <= point.step && s.time <= point.time)
            state.pttl = s.pttl;
    state.keyExists = state.pttl != -2 && point.step >= 0;
    if (!state.keyExists) state.holder.clear(), state.token.clear(), state.fence = 0;
}

}  // namespace

const char* toString(InstanceState state) {
    switch (state) {
        case InstanceState::Idle:
            return "idle";
        case InstanceState::Running:
            return "running the job";
        case InstanceState::HoldsLock:
            return "holds the lock";
        case InstanceState::WorksWithoutLock:
            return "works, no lock";
        case InstanceState::Frozen:
            return "frozen";
        case InstanceState::Crashed:
            return "crashed";
    }
    return "?";
}

StoryPoint storyPointOfBeat(const Recording& recording, int beat) {
    if (beat < 0 || beat >= static_cast<int>(recording.beats.size())) {
        if (beat < 0 || recording.beats.empty()) return {};
        beat = static_cast<int>(recording.beats.size()) - 1;
    }
    return {recording.beats[beat].step, recording.beats[beat].time};
}

bool intervalOpenAt(const Interval& interval, int step) {
    return interval.fromStep <= step && (interval.toStep < 0 || interval.toStep > step);
}

bool intervalStartedBy(const Interval& interval, const StoryPoint& point) {
    return interval.fromStep <= point.step;
}

VirtualMs intervalVisibleEnd(const Interval& interval, const StoryPoint& point) {
    if (!intervalStartedBy(interval, point)) return -1;
    return intervalOpenAt(interval, point.step) ? std::max(interval.from, point.time) : interval.to;
}

std::vector<LaneState> laneStatesAt(const Recording& recording, const StoryPoint& point) {
    // The key lanes first: an instance holds only what its node's key lane shows.
    std::vector<LaneState> states(recording.lanes.size());
    for (std::size_t i = 0; i < recording.lanes.size(); ++i) {
        const Lane& lane = recording.lanes[i];
        states[i].lane = lane.id;
        states[i].kind = lane.kind;
        if (point.step >= 0 && lane.kind == LaneKind::RedisKey)
            deriveKey(recording, lane, point, states[i]);
    }
    for (std::size_t i = 0; i < recording.lanes.size(); ++i)
        if (point.step >= 0 && recording.lanes[i].kind == LaneKind::Instance)
            deriveInstance(recording, states, recording.lanes[i], point, states[i]);
    return states;
}

}  // namespace lockscope::sim
