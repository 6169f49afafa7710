#pragma once
// A Redis node's clock steps forward (redlock-clock-jump): the node's keys keep their
// deadlines on its own clock, so by everyone else's clock they now expire early, possibly
// at once. The simulator then runs the expiry like any other.

#include "lockscope/sim/timeline.h"
#include "lockscope/sim/world.h"

namespace lockscope::sim {

void performClockJump(World& world, Recording& recording, ClockJumpFault& jump);

}  // namespace lockscope::sim
