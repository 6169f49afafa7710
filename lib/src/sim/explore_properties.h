#pragma once
// The three properties the explorer checks in each run, computed from the run's recording
// and outcome by the simulator's rules (nothing is told by the story).

#include "lockscope/sim/explorer.h"
#include "lockscope/sim/replay.h"

namespace lockscope::sim {

// Two instances believed they held the lock at once (lock_beliefs.h). Several servers: the
// simulator's own count of overlapping majority holds.
bool mutualExclusionBroken(const Replay& run);

// The protected resource took a write from a client whose view was stale:
//  - a fenced store took a lower fence than one it had taken, or an unfenced save
//    overwrote the report of a later holder;
//  - with no store, a report chunk went into a file another run had touched;
//  - Redis took a write computed from an out-of-date read: a client read a key (GET), another
//    client changed it, then the first wrote it (SET, DEL) — a lost update, or a DEL that
//    removes someone else's lock.
bool staleWriteAccepted(const Recording& recording);

// A key held with no TTL while its holder is dead (crashed inside the no-TTL stretch):
// nothing will ever expire or release it (setnx-expire-crash's lesson: a liveness failure).
bool stuckLock(const Recording& recording);

bool breaks(const Replay& run, Property property);

}  // namespace lockscope::sim
