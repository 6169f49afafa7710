#pragma once
// The nemesis's plan, drawn from the seed before the run starts: one fault at a time (as
// Jepsen's nemesis), each with its own start, length, target and magnitude scaled to the
// lock's TTL so that a pause or a clock jump can outlast a lease. Same seed, same plan.

#include <chrono>
#include <cstdint>
#include <vector>

#include "lockscope/torture/torture_run.h"

namespace lockscope::torture {

struct FaultEvent {
    FaultKind kind = FaultKind::Pause;
    std::chrono::milliseconds at{0};         // since the run started
    std::chrono::milliseconds length{0};     // how long the fault lasts (0: instantaneous)
    std::chrono::milliseconds magnitude{0};  // delay: per reply; clock: the jump
    int worker = 0;                          // pause, delay, partition
    std::vector<int> nodes;                  // restart, failover, clock, server-stall
};

struct FaultPlanShape {
    std::vector<FaultKind> kinds;
    std::uint64_t seed = 1;
    std::chrono::milliseconds duration{0}, ttl{1000};
    int workers = 1, nodes = 1;
};

std::vector<FaultEvent> planFaults(const FaultPlanShape& shape);

}  // namespace lockscope::torture
