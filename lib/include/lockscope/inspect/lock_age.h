#pragma once
// How old a lock is, from the best evidence there is, and which evidence that was. The time
// LockScope has watched a key is not its age: a lock held ten minutes is "seen for 9 s" by a
// watcher that just started. Evidence, best first:
//   - an acquire time inside the token (redis-py's uuid1 holds a timestamp, ShedLock's value
//     "ADDED:<iso time>@host" one): the age itself;
//   - an acquire seen while watching (the holder changed, or the key appeared after the
//     watch's first scan): about the time since;
//   - the lease length seen on the key minus the PTTL when the holder was first seen, plus
//     the time since: a lower bound ("≥ 21 s"), valid when every set uses the same lease;
//   - otherwise unknown.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

using WallClock = std::chrono::system_clock;

enum class AgeSource : std::uint8_t { TokenTimestamp, AcquireSeen, LeaseMinusTtl, Unknown };

struct LockAge {
    AgeSource source = AgeSource::Unknown;
    std::int64_t ms = -1;  // exact (token), about (acquire seen) or at least (lease); -1 unknown
};

const char* toString(AgeSource source);

// The acquire time carried by a token: a version-1 UUID (32 hex or dashed) or ShedLock's
// "ADDED:<yyyy-mm-ddThh:mm:ss[.fff](Z|±hh:mm)>@host". nullopt for anything else.
std::optional<WallClock::time_point> acquireTimeInToken(std::string_view token);

// The best estimate of the lock's age at (now, wallNow). The record carries the history the
// estimate needs (firstPttlMs, leasePttlMs) when it came from a LockTable.
LockAge estimateAge(const LockRecord& record, SteadyClock::time_point now,
                    WallClock::time_point wallNow);

}  // namespace lockscope::inspect
