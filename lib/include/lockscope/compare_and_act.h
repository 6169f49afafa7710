#pragma once
// Compare-and-act on one key: delete it, or set its TTL, only while it still holds the
// value we observed. The primitive under safe release and expire (and usable by the lock
// library): a Lua script where scripting is allowed, and WATCH / GET / MULTI / DEL or
// PEXPIRE / EXEC where it is not (EVAL denied by ACL or unknown, as on some managed and
// sharded caches), which gives the same guarantee: if the key changes between our GET and
// EXEC, EXEC runs nothing. The result says which path ran, for the audit log and the UI.

#include <chrono>
#include <string_view>

#include "lockscope/connection.h"
#include "lockscope/errors.h"

namespace lockscope {

enum class CompareAndActPath { Script, Transaction };

const char* toString(CompareAndActPath path);  // "script", "WATCH/MULTI/EXEC"

struct CompareAndActResult {
    bool acted = false;  // the key held the expected value and the action ran
    CompareAndActPath path = CompareAndActPath::Script;
};

// Prefer: the path to try first (a caller that already saw scripting denied passes
// Transaction and saves the failed EVAL).
CompareAndActResult compareAndDelete(Connection& connection, std::string_view key,
                                     std::string_view expected,
                                     CompareAndActPath prefer = CompareAndActPath::Script);
CompareAndActResult compareAndExpire(Connection& connection, std::string_view key,
                                     std::string_view expected, std::chrono::milliseconds ttl,
                                     CompareAndActPath prefer = CompareAndActPath::Script);

// True for a refusal that means "no scripting here": NOPERM on EVAL/EVALSHA or an unknown
// command; false for anything about the key or the data.
bool isScriptingUnavailable(const ReplyError& error);

}  // namespace lockscope
