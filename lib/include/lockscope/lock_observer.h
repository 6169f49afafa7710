#pragma once
// Hooks for applications that log and count what their locks do, without wrapping every
// call: set LockOptions::observer (or RedlockOptions::observer) and hear every acquire,
// extend, loss, release and fence regression with its durations. A Redlock's events also
// carry the round they come from (per-node outcomes, quorum, validity) and report failed
// acquires and extends, since which nodes refused is what a Redlock log needs.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace lockscope {

struct RedlockAttempt;  // lockscope/redlock/redlock_attempt.h

enum class LockEventKind {
    Acquired,        // an acquire succeeded (also a repeated one that found our own token)
    Extended,        // a manual extend() renewed the lease (watchdog renewals are not reported)
    Lost,            // the watchdog found the lock gone, or its renewals ran out of time
    Released,        // release() ran; `stillOwned` says whether the key still held our token
    FenceRegressed,  // an acquire returned a fence not above one this process saw for the lock
    // Redlock only, one per tryAcquire()/acquire(deadline)/extend() call that did not hold:
    AcquireFailed,  // no majority within the validity (`round` says what each node did)
    ExtendFailed,   // the renewal fell short; the lock stays as it was until its validity ends
};
const char* toString(LockEventKind kind);

struct LockEvent {
    LockEventKind kind = LockEventKind::Acquired;
    std::string key;                    // lock:{name}
    std::optional<std::int64_t> fence;  // the fence of the lease (RedisLock; Redlock has none)
    // Acquired, AcquireFailed: from the start of the acquire call to its end (retries included).
    std::chrono::microseconds waited{0};
    // Extended, ExtendFailed, Lost, Released: since the lease was acquired.
    std::chrono::microseconds held{0};
    // FenceRegressed: the highest fence this process had seen for this lock before.
    std::int64_t highestFenceSeen = 0;
    // Released: our token was still there and was deleted (Redlock: on a majority of nodes).
    bool stillOwned = false;
    std::string reason;  // Lost, FenceRegressed, AcquireFailed, ExtendFailed: one sentence
    // Redlock only: the round the event is about — per node granted/refused/error with the
    // reason and latency, the quorum, the validity left. Lost: the watchdog's last renewal
    // round (null if it saw none). Null for RedisLock. Valid during the call only: copy the
    // RedlockAttempt to keep it.
    const RedlockAttempt* round = nullptr;
};

// Called synchronously on the thread that caused the event (Lost: the watchdog's thread).
// It must be quick and must not call back into the same lock; an exception it throws is
// caught and dropped, so a broken logger cannot break locking.
using LockObserver = std::function<void(const LockEvent&)>;

}  // namespace lockscope
