#include "lockscope/inspect/watch_coverage.h"

#include <algorithm>

#include "lockscope/inspect/discover.h"
#include "lockscope/inspect/lock_shape.h"

namespace lockscope::inspect {

bool WatchCoverage::covers(const LockRecord& record) const {
    if (!nonLocks && !isLockShaped(record)) return false;
    return std::any_of(patterns.begin(), patterns.end(),
                       [&](const std::string& pattern) { return globMatch(pattern, record.key); });
}

}  // namespace lockscope::inspect
