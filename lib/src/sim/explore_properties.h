#pragma once
// The properties the explorer checks in each run, computed from the run's recording and
// outcome by the simulator's rules (nothing is told by the story). Simulator::finish judges
// them once per run into OutcomeSummary::broken, so the replay's verdict (run_verdict.h) and
// --explore read the same answer and cannot disagree.

#include "lockscope/sim/explorer.h"
#include "lockscope/sim/replay.h"

namespace lockscope::sim {

// Two instances believed they held the lock at once (lock_beliefs.h). Several servers: the
// simulator's own count of overlapping majority holds.
bool mutualExclusionBroken(const Recording& recording, const OutcomeSummary& outcome);

// The protected resource took a write from a client whose view was stale:
//  - the report row took a write after a newer holder's (write_order.h: the one definition,
//    counted as OutcomeSummary::staleWritesAccepted; a late write is not one);
//  - with no store, a report chunk went into a file another run had touched;
//  - Redis took a write computed from an out-of-date read: a client read a key (GET), another
//    client changed it, then the first wrote it (SET, DEL) — a lost update, or a DEL that
//    removes someone else's lock.
bool staleWriteAccepted(const Recording& recording, const OutcomeSummary& outcome);

// A key still held with no TTL when the run ends while its holder is dead: nothing will ever
// expire or release it (setnx-expire-crash with no operator). A key an operator released is
// not stuck.
bool stuckLock(const Recording& recording);

PropertiesBroken judgeProperties(const Recording& recording, const OutcomeSummary& outcome);

// Reads the run's judged properties (OutcomeSummary::broken).
bool breaks(const Replay& run, Property property);

}  // namespace lockscope::sim
