#pragma once
// Who believed they held the lock, and when: the ground of the explorer's mutual-exclusion
// property. A client believes it holds the lock from a successful acquire until it releases
// it, learns it lost it, or crashes. When the lock goes away under it (it expired, another
// client deleted or overwrote it) it cannot know: it goes on believing until the end of its
// lease as it measured it, and past that end until its next command, which acts as a holder
// (a paused client wakes up and writes, extends, deletes). A job still running without its
// lock is the simulator's own LeaseLapsed band.

#include <string>
#include <utility>
#include <vector>

#include "lockscope/sim/timeline.h"

namespace lockscope::sim {

struct LockBelief {
    LaneId lane = 0;
    VirtualMs from = 0;
    VirtualMs to = 0;  // kForever: still believed when the run ended
    std::string key;   // the key held: beliefs about different keys (two seats) never clash
};

inline constexpr VirtualMs kForever = INT64_MAX;

// Every belief of every instance lane of the recording (one Redis node's lock).
std::vector<LockBelief> lockBeliefs(const Recording& recording);

// Two instances believed they held the same key at the same time.
bool beliefsOverlap(const std::vector<LockBelief>& beliefs);
// Which two: each pair of lanes once (lower lane first), in lane order.
std::vector<std::pair<LaneId, LaneId>> overlappingBelievers(const std::vector<LockBelief>& beliefs);

}  // namespace lockscope::sim
