#pragma once
// Asynchronous replication and failover between model nodes: a replica applies its
// primary's writes lag ms late, and a failover promotes it, losing what had not arrived.
// (The ground for the failover and seat-hold stories; the single-server scenarios have no
// replication links and never reach this code.)

#include <cstddef>

#include "lockscope/sim/timeline.h"
#include "lockscope/sim/world.h"

namespace lockscope::sim {

void deliverReplicatedWrite(World& world, Recording& recording, std::size_t index);
void performFailover(World& world, Recording& recording, FailoverFault& failover);

}  // namespace lockscope::sim
