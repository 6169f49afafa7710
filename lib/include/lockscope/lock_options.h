#pragma once
// How a RedisLock is named, how long its lease runs, how a blocking acquire waits, and what
// RedisLock::hold() sets up.

#include <chrono>
#include <stop_token>
#include <string>

#include "lockscope/lock_observer.h"
#include "lockscope/watchdog.h"

namespace lockscope {

struct LockOptions {
    std::chrono::milliseconds ttl{30'000};
    std::string lockPrefix = "lock:";    // key = prefix + "{" + name + "}"
    std::string fencePrefix = "fence:";  // fence counter = prefix + "{" + name + "}"
    LockObserver observer;               // optional: hears acquired/extended/lost/released/...
};

// How a blocking acquire waits between attempts: delay plus a random share of jitter, so
// contending clients do not retry in lockstep.
struct RetryOptions {
    std::chrono::milliseconds delay{50};
    std::chrono::milliseconds jitter{50};
};

// What RedisLock::hold() does besides acquiring.
struct HoldOptions {
    RetryOptions retry;
    // The watchdog's interval (0: ttl / 3) and its onLost, called on the watchdog's thread as
    // soon as the loss is seen — or, when no watchdog saw it, at release (on the releasing
    // thread) if the key no longer held our token. Either way at most once.
    WatchdogOptions watchdog;
    std::stop_token stop;  // cancels the waiting for the lock (hold() then returns nullopt)
};

}  // namespace lockscope
