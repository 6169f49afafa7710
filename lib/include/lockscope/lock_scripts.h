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
// KEYS and ARGV as acquire(), plus optionally KEYS[3] = the holder hash (LockOptions::holder)
// and ARGV[3..] its field/value pairs: written afresh (DEL, HSET, PEXPIRE ttl) whenever the
// lock is ours after the script. Returns {fence, 1} when it set the key now, {fence, 2} when
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

// extend() and release() for a lock that publishes its holder: KEYS[2] = the holder hash,
// extended or deleted with the lock, only while it names our token (ARGV[1]) — a hash that
// some other writer left there is not ours to touch. Returns as extend() and release().
const Script& extendWithHolder();
const Script& releaseWithHolder();

}  // namespace lockscope::scripts
