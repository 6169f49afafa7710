#pragma once
// Renewal seen, for any format: the same holder with its lease extended (its PTTL went up
// between two looks) is alive as of that renewal. Renewals that stopped while the TTL runs
// down are a warning that says when the last one was, never a `gone`: a paused holder (GC,
// SIGSTOP, a slow disk) stops renewing and may still come back within its lease.
// The tracker remembers each key's last look; a watcher's own count (LockRecord::renewals,
// from LockTable) is used as well. Internal to lockscope_inspect.
//
// A look is keyed by a 64-bit hash of the key, not a copy of it: the watch's table already
// holds every key, and a second copy cost the exporter about 50 bytes a lock (issue 37 item
// 7). Two keys of one hash (about 1 in 10^7 for a million keys) would share a look: the
// holder hash tells their holders apart, so the worst is a renewal not seen.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect::liveness {

// Wall-clock time of a steady instant, for evidence lines (the steady clock has no epoch).
WallClock::time_point wallTimeOf(SteadyClock::time_point t, SteadyClock::time_point steadyNow,
                                 WallClock::time_point wallNow);

class RenewalTracker {
  public:
    static constexpr std::size_t kDefaultMaxKeys = 200'000;
    // maxKeys 0: no look is kept; each look judges from the watcher's own count alone
    // (LockRecord::renewals, leasePttlMs, lastChange): a table that keeps each verdict
    // without its evidence needs no more (about 100 bytes a lock less).
    explicit RenewalTracker(std::size_t maxKeys = kDefaultMaxKeys) : maxKeys_(maxKeys) {}

    // Records this look at the lock and returns what its renewals say (nothing when no
    // renewal was ever seen for the current holder).
    std::vector<Evidence> observe(const LockRecord& record, SteadyClock::time_point now,
                                  WallClock::time_point wallNow);
    // A renewal of the current holder of key was seen.
    bool renewed(const std::string& key) const;

  private:
    struct Look {
        std::size_t holder = 0;  // hash of the token or hash fields
        std::int64_t pttlMs = -1;
        SteadyClock::time_point at;
        SteadyClock::time_point holderSince;  // first look at this holder
        std::int64_t leaseMs = -1;            // the largest PTTL this holder was seen with
        std::uint32_t renewals = 0;
        // Meaningful once renewals > 0 (no optional: 16 bytes a look less).
        SteadyClock::time_point firstRenewal, lastRenewal;
    };
    void update(Look& look, const LockRecord& record, std::size_t holder);
    Look& lookAt(std::uint64_t key);  // kept, within maxKeys_

    std::unordered_map<std::uint64_t, Look> looks_;  // by keyHash(key)
    std::size_t maxKeys_;
};

}  // namespace lockscope::inspect::liveness
