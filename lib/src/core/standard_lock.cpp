// RedisLock's standard TimedLockable interface (lock, try_lock, try_lock_for/until, unlock):
// exclusive per lock object like a std::timed_mutex, then on the server like any acquire.
#include "local_gate.h"
#include "lockscope/errors.h"
#include "lockscope/redis_lock.h"

namespace lockscope {

void RedisLock::lock() {
    (void)lock(std::stop_token());
}

bool RedisLock::lock(std::stop_token stop) {
    if (!gate_->closeBefore(Clock::time_point::max(), stop)) return false;
    detail::GateHold gate(*gate_);
    // Without a deadline acquireUntil retries through I/O errors until it holds or stops.
    if (!acquireUntil(Clock::time_point::max(), {}, std::move(stop))) return false;
    gate.commit();  // unlock() opens it
    return true;
}

bool RedisLock::try_lock() {
    if (!gate_->tryClose()) return false;  // held through this object already
    detail::GateHold gate(*gate_);
    try {
        // One attempt, its lost-reply retry included, within one commandTimeout.
        if (!attemptOnce(Clock::now(), Clock::now() + connection_->commandTimeout())) return false;
    } catch (const OutcomeUnknownError&) {
        abandonUnknownAcquire();
        return false;
    } catch (const IoError&) {
        return false;  // not reached in time: nothing was set
    }
    gate.commit();
    return true;
}

bool RedisLock::tryLockUntil(Clock::time_point deadline) {
    if (!gate_->closeBefore(deadline, {})) return false;
    detail::GateHold gate(*gate_);
    try {
        if (!acquireUntil(deadline, {}, {})) return false;
    } catch (const IoError&) {
        return false;  // by the deadline; an attempt left unanswered is being cleaned up
    }
    gate.commit();
    return true;
}

void RedisLock::unlock() noexcept {
    try {
        (void)release();
    } catch (...) {
        // unlock() runs in destructors (std::unique_lock): the TTL frees what is left.
    }
    gate_->open();
}

}  // namespace lockscope
