#pragma once
// SafeActions' compare-and-act without scripting: where EVAL is denied or unknown (an ACL
// without @scripting, some managed and sharded caches), the same checks with WATCH / reads /
// MULTI / DEL or PEXPIRE / EXEC. If the key changes between the reads and EXEC, EXEC runs
// nothing, so the guarantee is the script's. Internal to lockscope_inspect.

#include <chrono>
#include <cstdint>
#include <string_view>

#include "lockscope/connection.h"
#include "lockscope/inspect/safe_actions.h"

namespace lockscope::inspect {

// op: "del", "pexpire" (seen without a TTL) or "lengthen" (seen with one). Returns the
// script's codes: 1 done, 0 holder changed (or kept changing under us), -1 no such key,
// -2 got a TTL since seen without one, -3 the TTL would shrink. Throws the connection's
// errors; a lost EXEC reply is an OutcomeUnknownError, never re-sent.
std::int64_t compareAndActByTransaction(Connection& connection, std::string_view key,
                                        std::string_view op, std::chrono::milliseconds ttl,
                                        const Holder& seen);

}  // namespace lockscope::inspect
