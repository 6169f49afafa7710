#pragma once
// The three Redlock rounds (acquire, extend, release) as free functions over a node set, so
// the Redlock object and the RedlockWatchdog (which owns a sibling node set on its own
// thread) apply exactly the same rules.

#include <chrono>
#include <string>

#include "lockscope/redlock/node_set.h"
#include "lockscope/redlock/redlock_attempt.h"

namespace lockscope::redlock_detail {

struct LeaseSpec {
    std::string key;
    std::string token;
    std::chrono::milliseconds ttl;
    std::chrono::milliseconds nodeTimeout;
};

// SET key token NX PX ttl on every node at once. Succeeds with a majority of grants and a
// positive validity; otherwise says why in `failure` (the caller then releases everywhere,
// unless it held the lock). renewOurs (a lock we hold or may hold): a node whose key already
// holds our token resets its TTL and grants, instead of refusing.
RedlockAttempt acquireRound(RedlockNodeSet& nodes, const LeaseSpec& lease, int number,
                            bool renewOurs);

// The guide's extend script on every node at once. Succeeds only with a majority of renewals,
// finished before `currentValidUntil`, and a positive new validity.
RedlockAttempt extendRound(RedlockNodeSet& nodes, const LeaseSpec& lease,
                           std::chrono::steady_clock::time_point currentValidUntil);

// The guide's owner-checked release script on every node at once. Succeeds when no node erred.
RedlockAttempt releaseRound(RedlockNodeSet& nodes, const LeaseSpec& lease);

}  // namespace lockscope::redlock_detail
