#pragma once
// How a RedisLock is named, how long its lease runs, how a blocking acquire waits, and what
// RedisLock::hold() sets up.

#include <chrono>
#include <stop_token>
#include <string>
#include <string_view>

#include "lockscope/lock_observer.h"
#include "lockscope/watchdog.h"

namespace lockscope {

// Who holds the lock, written next to it so an operator (LockScope's inspector) can tell
// whether the holder is still alive. The acquire script also writes the hash
// `<prefix>{name}` (the lock's hash tag: same Cluster slot, same TTL) with the token, host,
// pid, acquiring thread's name, the purpose and the connection's name; the extend and release
// scripts extend and delete it with the lock (no extra round trip). The lock's connection (and
// its watchdog's) is named `lockscope:<host>:<pid>` with CLIENT SETNAME, once, unless the user
// already named it (that name is kept and recorded instead).
// On by default: it costs one small hash per held lock and a few bytes per acquire, and it
// answers the operator's question "is whoever holds this still alive?" for every lock taken
// with this library. Turn it off (publish = false) where an extra key per lock is unwelcome
// (a keyspace counted by an external tool, an ACL that allows only lock:* keys).
struct HolderIdentity {
    bool publish = true;
    std::string purpose;             // optional: what the holder does ("nightly report")
    std::string prefix = "holder:";  // hash key = prefix + "{" + name + "}"
    bool nameConnection = true;      // CLIENT SETNAME lockscope:<host>:<pid> when unnamed
};

// Every member has a default initialiser, so designated initialisers ({.ttl = 5s}) that
// name only some of them compile with -Wall -Wextra -Werror.
struct LockOptions {
    std::chrono::milliseconds ttl{30'000};
    std::string lockPrefix = "lock:";    // key = prefix + "{" + name + "}"
    std::string fencePrefix = "fence:";  // fence counter = prefix + "{" + name + "}"
    LockObserver observer{};             // optional: hears acquired/extended/lost/released/...
    HolderIdentity holder{};             // who holds it, for the inspector (on by default)
};

// Throws InvalidArgumentError for a name that is empty, longer than 512 bytes, or holds
// control bytes or braces (braces would break the {hash tag} that keeps lock and fence
// in one Cluster slot).
void validateLockName(std::string_view name);

// Throws InvalidArgumentError for a key prefix longer than 512 bytes or holding control
// bytes or braces: a brace would put its own {hash tag} before the name's, so the lock and
// its fence counter could land in different Cluster slots. `what` names it in the message.
void validateKeyPrefix(std::string_view prefix, std::string_view what);

// Throws InvalidArgumentError for a TTL ≤ 0, a bad prefix (validateKeyPrefix), a holder
// prefix equal to the lock or fence prefix (when published), a purpose longer than 256 bytes
// or holding control bytes, or a lock prefix equal to the fence prefix (the lock key would be the
// fence counter: the acquire script would set it and then fail to count it, leaving our token
// behind). RedisLock's constructor calls it, so a bad option never reaches the server.
void validateLockOptions(const LockOptions& options);

// How a blocking acquire waits between attempts: delay plus a random share of jitter, so
// contending clients do not retry in lockstep.
struct RetryOptions {
    std::chrono::milliseconds delay{50};
    std::chrono::milliseconds jitter{50};
};

// What RedisLock::hold() does besides acquiring.
struct HoldOptions {
    RetryOptions retry{};
    // The watchdog's interval (0: ttl / 3) and its onLost, called on the watchdog's thread as
    // soon as the loss is seen — or, when no watchdog saw it, at release (on the releasing
    // thread) if the key no longer held our token. Either way at most once.
    WatchdogOptions watchdog{};
    std::stop_token stop{};  // cancels the waiting for the lock (hold() then returns nullopt)
};

}  // namespace lockscope
