#pragma once
// The guide's three Lua scripts: acquire with a fencing token, and the owner-checked
// extend and release. Each runs atomically on the server.

#include "lockscope/script.h"

namespace lockscope::scripts {

// KEYS[1] = lock key, KEYS[2] = fence counter, ARGV[1] = token, ARGV[2] = ttl ms.
// Returns the new fencing token, or 0 when the lock is held by someone else.
const Script& acquire();

// KEYS[1] = lock key, ARGV[1] = token, ARGV[2] = ttl ms. Returns 1 while we own it, else 0.
const Script& extend();

// KEYS[1] = lock key, ARGV[1] = token. Returns 1 when our lock was deleted, else 0.
const Script& release();

}  // namespace lockscope::scripts
