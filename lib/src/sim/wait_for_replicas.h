#pragma once
// WAIT numreplicas timeout against the replication model. Redis answers WAIT with the
// number of replicas that acknowledged every write the primary had sent before the WAIT,
// once numreplicas did or the timeout ran out. Here a replica acknowledges when the last
// of those writes is delivered to it; a failover that cuts the link means it never does.
// A WAIT that returned 1 proves one replica had the write: it narrows the failover window
// (a failover before that moment is now noticed) but does not close it (a failover may
// still promote another replica, or lose the one that acknowledged).

#include <optional>

#include "lockscope/sim/timeline.h"
#include "lockscope/sim/world.h"

namespace lockscope::sim {

// Registers the WAIT of actor on node at world.now and settles it if it is already met.
void startWait(World& world, Recording& recording, const std::string& actor, int node,
               int numReplicas, VirtualMs timeout);
// A replicated write reached its replica: acknowledge the waits it completes.
void acknowledgeDelivery(World& world, Recording& recording, const InFlightWrite& write);
// The earliest timeout of a pending WAIT.
std::optional<VirtualMs> nextWaitDeadline(const World& world);
// Answers every pending WAIT whose timeout is due at world.now.
void expireWaits(World& world, Recording& recording);

}  // namespace lockscope::sim
