#pragma once
// What a watch's table covers: the patterns it was read under and whether ordinary keys were
// kept. A key a watch finds that is not in its table "appeared while watching" (its acquire
// was seen, lock_age.h) only if the table covered it: after the patterns were widened or
// ordinary keys were let in, the keys that were there all along were merely not read, and
// their age is not known (issue 32: a list shown by Settings → Show non-lock keys read
// "≈ 5 s" old).

#include <string>
#include <vector>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

struct WatchCoverage {
    std::vector<std::string> patterns;
    bool nonLocks = false;

    // Whether a table read under this coverage would hold `record`'s key.
    bool covers(const LockRecord& record) const;
};

}  // namespace lockscope::inspect
