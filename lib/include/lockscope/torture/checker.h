#pragma once
// Reads a torture history and says what the lock really guaranteed: whether two workers
// were ever inside the critical section at once (from the resource's own global order, not
// from anyone's clock), whether a write with an older fence was accepted after a newer one,
// how often a holder found its lock gone, and what faults were injected. Works on any
// history in the shape of history.h, so it can be tested on hand-made ones.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "lockscope/torture/history.h"

namespace lockscope::torture {

// The shortest stretch of the history that shows a violation, for the report.
struct Window {
    std::int64_t fromNs = 0;
    std::int64_t toNs = 0;
    std::string what;  // one sentence naming the workers, rounds and fences involved
};

struct Verdict {
    int acquisitions = 0;
    int overlaps = 0;  // pairs of critical sections (different workers) that interleave
    // Writes accepted although a newer fence had been accepted before. nullopt when no
    // write carried a fence (the client has none: nothing to compare).
    std::optional<int> staleWritesAccepted;
    int staleWritesRejected = 0;
    int lostLocks = 0;  // releases that found the lock gone (expired, or someone else's)
    int writes = 0;
    double durationS = 0;
    double throughputPerS = 0;                  // acquisitions per second
    std::map<std::string, int> faultsInjected;  // per kind
    std::optional<Window> overlapWindow, staleWriteWindow, lostLockWindow;
};

Verdict check(const History& history, double durationS);

}  // namespace lockscope::torture
