#pragma once
// What a HeldLock and its RedisLock share: the fence, the watchdog, the loss report, and the
// link to the lock, which the lock cuts when it is destroyed first (the handle then reports
// "lock destroyed" instead of reaching into freed memory).

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>

#include "lockscope/held_lock.h"

namespace lockscope {

class RedisLock;
class Watchdog;
namespace detail {
class LocalGate;
}

struct HeldLock::State {
    std::int64_t fence = 0;
    bool fenceRegressed = false;
    std::shared_ptr<Watchdog> watchdog;
    std::function<void(const std::string&)> onLost;
    std::stop_source cancel;
    // holdLock(): the handle owns its lock (and through it the connection). Destroyed last.
    std::unique_ptr<RedisLock> ownedLock;

    mutable std::mutex mutex;   // guards what follows: the watchdog's thread reports loss
    RedisLock* lock = nullptr;  // null once the lock was destroyed (detached)
    // Expires with the lock: a handle released before its lock died must not reach it either.
    std::weak_ptr<detail::LocalGate> lockAlive;
    bool released = false;  // released, or detached: nothing left to release
    bool lost = false;
    std::string lostReason;

    ~State();
    // Once, from whichever thread sees the loss first; calls onLost outside the mutex.
    void reportLost(const std::string& reason);
    // Takes the lock for a release: null when released or detached already (then nothing
    // is left to release).
    RedisLock* take();
    // The lock is being destroyed: cut the link. true when the handle still held it (the
    // lock must then release the key and report the loss).
    bool detach();
};

}  // namespace lockscope
