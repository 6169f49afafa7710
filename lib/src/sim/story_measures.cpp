#include "lockscope/sim/story_measures.h"

#include <algorithm>

namespace lockscope::sim::measure {

ComparisonRow emailsSent() {
    return {"Emails sent", [](const OutcomeSummary& o) { return o.emailsSent; },
            RowSense::ExactlyOne};
}

ComparisonRow duplicateRuns() {
    return {"Duplicate runs", [](const OutcomeSummary& o) { return o.duplicateRuns; }};
}

ComparisonRow corruptedReportsEmailed() {
    return {"Corrupted reports emailed",
            [](const OutcomeSummary& o) { return o.corruptedReportsEmailed; }};
}

ComparisonRow emailsHeldBack() {
    return {"Emails held back by the date key",
            [](const OutcomeSummary& o) { return o.emailsSuppressed; }, RowSense::Protection};
}

// A lock with no TTL refuses every later run: here a refusal is the harm.
ComparisonRow runsRefused() {
    return {"Runs refused the lock", [](const OutcomeSummary& o) { return o.runsRefused; }};
}

ComparisonRow orphansReleased() {
    return {"Orphan locks released", [](const OutcomeSummary& o) { return o.orphansReleased; },
            RowSense::Protection};
}

ComparisonRow foreignDeletions() {
    return {"Foreign deletions", [](const OutcomeSummary& o) { return o.foreignDeletions; }};
}

ComparisonRow leaseLapses() {
    return {"Locks lost under a working holder",
            [](const OutcomeSummary& o) { return o.leaseLapses; }};
}

ComparisonRow overlappingHolds() {
    return {"Times two clients held it at once",
            [](const OutcomeSummary& o) { return o.overlappingHolds; }};
}

ComparisonRow corruptedWrites() {
    return {"Corrupted writes", [](const OutcomeSummary& o) { return o.corruptedWrites; }};
}

ComparisonRow staleWritesAccepted() {
    return {"Stale writes accepted", [](const OutcomeSummary& o) { return o.staleWritesAccepted; }};
}

ComparisonRow lateWrites() {
    return {"Late writes accepted", [](const OutcomeSummary& o) { return o.lateWrites; }};
}

ComparisonRow staleWritesRejected() {
    return {"Stale writes rejected", [](const OutcomeSummary& o) { return o.staleWritesRejected; },
            RowSense::Protection};
}

ComparisonRow holderWritesRejected() {
    return {"Holder's writes rejected",
            [](const OutcomeSummary& o) { return o.holderWritesRejected; }};
}

ComparisonRow seatsSoldTwice() {
    return {"Seats sold twice", [](const OutcomeSummary& o) { return o.seatsSoldTwice; }};
}

ComparisonRow bookingsRefused() {
    return {"Confirmations refused by the database",
            [](const OutcomeSummary& o) { return o.bookingsRefused; }, RowSense::Protection};
}

// WAIT short of replicas: client1 gives the lock back rather than trust it.
ComparisonRow waitsShort() {
    return {"WAITs short of replicas", [](const OutcomeSummary& o) { return o.waitsShort; },
            RowSense::Protection};
}

ComparisonRow lockAttemptsFailed() {
    return {"Lock attempts failed or refused",
            [](const OutcomeSummary& o) { return o.lockAttemptsFailed; }, RowSense::Cost};
}

ComparisonRow lostUpdates() {
    return {"Lost updates", [](const OutcomeSummary& o) { return std::max(0, o.lostUpdates); }};
}

// What correctness costs: GET and SET are 2, the lock adds SET NX and the release (4, more
// while it waits), INCR is 1. Rounded to the nearest whole command.
ComparisonRow commandsPerUpdate() {
    return {"Commands per update",
            [](const OutcomeSummary& o) {
                return o.updatesMade > 0 ? (o.updateCommands + o.updatesMade / 2) / o.updatesMade
                                         : 0;
            },
            RowSense::Cost};
}

}  // namespace lockscope::sim::measure
