#pragma once
// The inspector's terminal rendering: a table of locks with countdowns interpolated to `now`,
// and the JSON lines of --json.

#include <cstdio>
#include <string>
#include <vector>

#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/redlock_group.h"

namespace lockscope::cli {

// "12.3 s", "850 ms", "no TTL", "1 h 04 min".
std::string formatRemaining(std::int64_t ms);

// One header line and one line per lock; the INSTANCE column only when asked. showLiveness:
// each judged holder ends with its verdict ("tok-1 [gone]"; watch).
std::string formatLockTable(const std::vector<const inspect::LockRecord*>& records,
                            bool showInstance, inspect::SteadyClock::time_point now,
                            bool showLiveness = false);

// The same table a row at a time, for a listing that streams: the KEY column's width from
// the records at hand (lockTableKeyWidth), then the header and each row.
std::size_t lockTableKeyWidth(const std::vector<const inspect::LockRecord*>& records);
std::string formatLockTableHeader(bool showInstance, std::size_t keyWidth);
std::string formatLockTableRow(const inspect::LockRecord& record, bool showInstance,
                               std::size_t keyWidth, inspect::SteadyClock::time_point now,
                               bool showLiveness = false);

void printJsonLines(std::FILE* out, const std::vector<const inspect::LockRecord*>& records,
                    inspect::SteadyClock::time_point now);

// Lines naming the resources held on more than one instance (Redlock, or a failover).
std::string formatSharedResources(const std::vector<inspect::LockRecord>& all);

// One block per resource for list --group: the Redlock view (per node holder and PTTL,
// majority, validity left).
std::string formatRedlockGroup(const inspect::RedlockGroupView& view);

}  // namespace lockscope::cli
