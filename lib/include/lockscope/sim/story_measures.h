#pragma once
// The measures a story's comparison table can show, one function each. A scenario lists the
// ones its rules can produce (Scenario::measures): the atomic counter's table shows lost
// updates and commands per update, not a shared list of report rows that all read 0.

#include "lockscope/sim/outcome.h"

namespace lockscope::sim::measure {

// The nightly report jobs.
ComparisonRow emailsSent();
ComparisonRow duplicateRuns();
ComparisonRow corruptedReportsEmailed();
ComparisonRow emailsHeldBack();
ComparisonRow runsRefused();
ComparisonRow orphansReleased();
// Ownership of the lock.
ComparisonRow foreignDeletions();
ComparisonRow leaseLapses();
ComparisonRow overlappingHolds();
// What the lock guards.
ComparisonRow corruptedWrites();
ComparisonRow staleWritesAccepted();
ComparisonRow lateWrites();  // after the lease ended, no newer holder's write yet
ComparisonRow staleWritesRejected();
ComparisonRow holderWritesRejected();
ComparisonRow seatsSoldTwice();
ComparisonRow bookingsRefused();
// Replication and Redlock.
ComparisonRow waitsShort();
ComparisonRow lockAttemptsFailed();
// The atomic counter.
ComparisonRow lostUpdates();
ComparisonRow commandsPerUpdate();

}  // namespace lockscope::sim::measure
