#pragma once
// The guide's three Lua scripts (acquire with a fencing token, the owner-checked extend and
// release) and the lock library's idempotent acquire. Each runs atomically on the server.

#include "lockscope/script.h"

namespace lockscope::scripts {

// The guide's acquire, as the teaching simulator shows it: SET NX PX, then INCR the fence.
// KEYS[1] = lock key, KEYS[2] = fence counter, ARGV[1] = token, ARGV[2] = ttl ms.
// Returns the new fencing token, or 0 when the lock is held by anyone, ourselves included.
const Script& acquire();

// What RedisLock sends: the guide's acquire, made idempotent. When the key already holds our
// token (a second call, or a retry after a reply was lost while the first one ran) it resets
// the TTL and returns the current fence instead of refusing, so a lost reply never leaves a
// lock that blocks everyone, ourselves included, for a whole TTL.
// KEYS and ARGV as acquire(). Returns {fence, 1} when it set the key now, {fence, 2} when
// our token was already there, {0, 0} when another token holds it.
const Script& acquireOrRenew();

// Redlock's per-node acquire: SET NX PX, or PEXPIRE when our token is already there.
// KEYS[1] = lock key, ARGV[1] = token, ARGV[2] = ttl ms. Returns 1: set now, 2: ours
// already (TTL reset), 0: another token holds the key.
const Script& redlockAcquire();

// KEYS[1] = lock key, ARGV[1] = token, ARGV[2] = ttl ms. Returns 1 while we own it, else 0.
const Script& extend();

// KEYS[1] = lock key, ARGV[1] = token. Returns 1 when our lock was deleted, else 0.
const Script& release();

}  // namespace lockscope::scripts
