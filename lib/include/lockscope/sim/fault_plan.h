#pragma once
// Faults injected into a run: process pauses (GC, a suspended VM), crashes, failovers and
// clock jumps. A paused
// instance runs nothing until the pause ends, then carries on as if no time had passed;
// a crashed instance never runs again. Scenario parameters and user actions (the panel's
// right-click, Replay::pauseInstance) both add faults here.

#include <optional>
#include <string>
#include <vector>

#include "lockscope/sim/virtual_time.h"

namespace lockscope::sim {

struct PauseFault {
    std::string actor;
    VirtualMs from = 0;
    VirtualMs to = 0;
    std::string reason = "GC pause";
    bool startAnnounced = false;
    bool endAnnounced = false;
};

struct CrashFault {
    std::string actor;
    VirtualMs at = 0;
    bool announced = false;
};

// The replica `promote` becomes the primary; writes still in flight to it are lost.
struct FailoverFault {
    VirtualMs at = 0;
    int promote = 1;
    bool announced = false;
    std::string why;  // why this replica is the one promoted (said at the failover)
};

// A Redis node's clock steps forward by `jump` ms at `at` (an NTP correction, a VM resumed
// after suspension): every key there now expires `jump` ms earlier by the simulation's
// clock. Redlock's drift allowance covers a slow drift rate, not a step like this.
struct ClockJumpFault {
    int node = 0;
    VirtualMs at = 0;
    VirtualMs jump = 0;
    bool announced = false;
};

struct FaultPlan {
    std::vector<PauseFault> pauses;
    std::vector<CrashFault> crashes;
    std::vector<FailoverFault> failovers;
    std::vector<ClockJumpFault> clockJumps;

    // When an actor due at wake really runs: pushed to the end of any pause covering it.
    // With workFrom (work begun then, due at wake), every pause during the work adds its
    // length: the work left when the process froze is still to do when it resumes.
    VirtualMs effectiveWake(const std::string& actor, VirtualMs wake,
                            std::optional<VirtualMs> workFrom = std::nullopt) const;
    // The crash time of an actor, if one is planned.
    std::optional<VirtualMs> crashTime(const std::string& actor) const;
    bool pausedAt(const std::string& actor, VirtualMs t) const;
};

}  // namespace lockscope::sim
