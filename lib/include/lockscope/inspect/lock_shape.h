#pragma once
// Whether a key under the watched patterns is a lock or an ordinary key. With a pattern of
// "*" over 10,000 ordinary keys, every one used to enter the lock table as an "unknown" lock
// with a no-TTL alarm and an enabled Release, and was polled every interval. Lock-shaped:
//   - a value format the classifier knows (redis-py, node-redlock, Redisson hash, ...),
//     except a fixed value with no TTL whose name does not say "lock" (an ordinary flag);
//   - a key whose name says it is a lock ("lock" anywhere, any case) that is no list/set;
//   - a string with a TTL whose value looks like a token (at most 256 letters, digits and
//     -_.:=+/@$#~; a cached JSON document or a sentence is no token).
// Everything else is an ordinary key, shown only when the operator asks for non-lock keys.

#include <string_view>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

bool nameSaysLock(std::string_view key);
bool looksLikeToken(std::string_view value);
bool isLockShaped(const LockRecord& record);

}  // namespace lockscope::inspect
