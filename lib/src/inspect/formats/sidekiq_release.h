#pragma once
// How a sidekiq-unique-jobs digest is released without a script ever touching keys of two
// hash slots (Redis Cluster refuses that with CROSSSLOT): the digest's keys are grouped by
// slot, one script call per slot. The call in LOCKED's slot comes first and is the only one
// that compares (LOCKED must still hold exactly the jobs seen); the others only tidy, and run
// only after it released. The call holding QUEUED comes last, so the wake-up sentinel it
// leaves is seen by a waiter only when every key is gone. On a plain server, or with a
// hash-tagged digest whose keys share a slot, the plan is one call (all atomic, as before).
// Internal to lockscope_inspect; pure functions, no I/O.

#include <string>
#include <string_view>
#include <vector>

#include "lockscope/script.h"

namespace lockscope::inspect::formats {

struct SidekiqSlotCall {
    std::vector<std::string> keys;  // all of one hash slot
    // Per key, what the script does to it: "del", "zrem" (the digest's entry in a set of
    // digests), "wake" (delete, then leave the sentinel "1" for 5 s).
    std::vector<std::string> actions;
    bool compares = false;  // keys[0] is LOCKED, compared with the jobs seen
};

// The digest's keys (digest, QUEUED, PRIMED, LOCKED, INFO, uniquejobs:digests,
// uniquejobs:expiring_digests) in slot calls: the comparing call first, QUEUED's last.
// clusterSlots false: one call with every key (a plain server has no slots).
std::vector<SidekiqSlotCall> planSidekiqRelease(std::string_view digest, bool clusterSlots);

// KEYS: one call's keys. ARGV: digest, "1" when it compares, the count of jobs, the jobs,
// then one action per key. Returns {1, 0} done, {0, 0} LOCKED changed, {-1, 0} no LOCKED.
const Script& sidekiqReleaseScript();

// The ARGV of one call.
std::vector<std::string> sidekiqReleaseArgs(const SidekiqSlotCall& call, std::string_view digest,
                                            const std::vector<std::string>& jobsSeen);

}  // namespace lockscope::inspect::formats
