#pragma once
// Hooks for applications that log and count what their locks do, without wrapping every
// call: set LockOptions::observer (or RedlockOptions::observer) and hear every acquire,
// extend, loss, release and fence regression with its durations.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace lockscope {

enum class LockEventKind {
    Acquired,        // an acquire succeeded (also a repeated one that found our own token)
    Extended,        // a manual extend() renewed the lease (watchdog renewals are not reported)
    Lost,            // the watchdog found the lock gone, or its renewals ran out of time
    Released,        // release() ran; `stillOwned` says whether the key still held our token
    FenceRegressed,  // an acquire returned a fence not above one this process saw for the lock
};
const char* toString(LockEventKind kind);

struct LockEvent {
    LockEventKind kind = LockEventKind::Acquired;
    std::string key;                    // lock:{name}
    std::optional<std::int64_t> fence;  // the fence of the lease the event is about
    // Acquired: from the start of the acquire call to success (retries included).
    std::chrono::microseconds waited{0};
    // Extended, Lost, Released: since the lease was acquired.
    std::chrono::microseconds held{0};
    // FenceRegressed: the highest fence this process had seen for this lock before.
    std::int64_t highestFenceSeen = 0;
    bool stillOwned = false;  // Released: our token was still there and was deleted
    std::string reason;       // Lost and FenceRegressed: one sentence
};

// Called synchronously on the thread that caused the event (Lost: the watchdog's thread).
// It must be quick and must not call back into the same lock; an exception it throws is
// caught and dropped, so a broken logger cannot break locking.
using LockObserver = std::function<void(const LockEvent&)>;

}  // namespace lockscope
