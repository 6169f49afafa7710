#pragma once
// What every lane shows at a beat, derived from the recording alone: the instance lanes'
// state (crashed, frozen, working without its lock, holding it, running, idle) and the key
// lanes' holder, fence and PTTL. The lanes are painted from this one function, so they
// cannot contradict each other: "at beat k" means the recording up to and including the
// simulator step that recorded beat k (several steps can share one millisecond).

#include <cstdint>
#include <string>
#include <vector>

#include "lockscope/sim/timeline.h"

namespace lockscope::sim {

enum class InstanceState { Idle, Running, HoldsLock, WorksWithoutLock, Frozen, Crashed };

const char* toString(InstanceState state);

struct LaneState {
    LaneId lane = 0;
    LaneKind kind = LaneKind::Instance;
    // Instance lanes.
    InstanceState instance = InstanceState::Idle;
    std::vector<int> nodesHeld;  // the nodes where it holds a key, ascending
    // The keys it holds there, ascending: the lock key, or its own key when the story records
    // holders of other keys (seat-hold's buyers hold their own seat's key).
    std::vector<std::string> keysHeld;
    // RedisKey lanes: the lock key on the lane's node.
    bool keyExists = false;
    std::string holder;  // who set it; empty when no one holds it
    std::string token;
    std::int64_t fence = 0;
    std::int64_t pttl = -2;  // -2 no key, -1 no TTL, else ms left
};

// The point of the story a beat stands for: its step and its virtual time. Beat -1 (before
// the first) is step -1: nothing has happened yet.
struct StoryPoint {
    int step = -1;
    VirtualMs time = 0;
};
StoryPoint storyPointOfBeat(const Recording& recording, int beat);

// Whether an interval is open at a point: opened at or before its step, not yet closed.
bool intervalOpenAt(const Interval& interval, int step);
// Whether an interval has begun by a point, and where it ends as seen from there (its end,
// or the point's time while it is still open).
bool intervalStartedBy(const Interval& interval, const StoryPoint& point);
VirtualMs intervalVisibleEnd(const Interval& interval, const StoryPoint& point);

// One state per lane, in the recording's lane order.
std::vector<LaneState> laneStatesAt(const Recording& recording, const StoryPoint& point);
inline std::vector<LaneState> laneStatesAtBeat(const Recording& recording, int beat) {
    return laneStatesAt(recording, storyPointOfBeat(recording, beat));
}

}  // namespace lockscope::sim
