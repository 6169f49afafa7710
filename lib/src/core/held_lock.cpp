// RedisLock::hold(), startWatchdog() and the HeldLock handle they produce: what runs while
// a lock is held.
#include "lockscope/held_lock.h"

#include <functional>
#include <mutex>
#include <utility>

#include "lockscope/errors.h"
#include "lockscope/redis_lock.h"

namespace lockscope {

using std::chrono::duration_cast;
using std::chrono::microseconds;
using std::chrono::milliseconds;

struct HeldLock::State {
    std::int64_t fence = 0;
    bool fenceRegressed = false;
    std::shared_ptr<Watchdog> watchdog;
    std::function<void(const std::string&)> onLost;
    std::stop_source cancel;
    mutable std::mutex mutex;  // guards what follows: the watchdog's thread reports loss
    bool lost = false;
    bool released = false;
    std::string lostReason;

    // Once, from whichever thread sees the loss first.
    void reportLost(const std::string& reason) {
        std::function<void(const std::string&)> callback;
        {
            std::lock_guard lock(mutex);
            if (lost) return;
            lost = true;
            lostReason = reason;
            callback = onLost;
        }
        cancel.request_stop();
        if (!callback) return;
        try {
            callback(reason);
        } catch (...) {
            // Called from a destructor or the watchdog's thread: nowhere to throw to.
        }
    }
};

std::shared_ptr<Watchdog> RedisLock::startWatchdog(WatchdogOptions options) {
    if (!isHeld())
        throw InvalidArgumentError("cannot watch " + key_ +
                                   ": the lock is not held (acquire it first)");
    Lease lease{key_, token_, options_.ttl, {}};
    std::optional<std::int64_t> fence;
    Clock::time_point acquiredAt;
    {
        std::lock_guard lock(mutex_);
        if (watchdog_ && !watchdog_->lost())
            throw InvalidArgumentError("a watchdog already renews " + key_ +
                                       "; watchdog() returns it");
        lease.startedAt = leaseEnd_ - options_.ttl + leaseSafetyMargin(options_.ttl);
        fence = fence_;
        acquiredAt = acquiredAt_;
    }
    // The observer hears the loss first; the caller's onLost comes last, because it may
    // release or even destroy this lock. Nothing here refers to the lock itself.
    options.onLost = [observer = options_.observer, key = key_, fence, acquiredAt,
                      onLost = std::move(options.onLost)](const std::string& reason) {
        if (observer) {
            try {
                observer({.kind = LockEventKind::Lost,
                          .key = key,
                          .fence = fence,
                          .held = duration_cast<microseconds>(Clock::now() - acquiredAt),
                          .reason = reason});
            } catch (...) {
            }
        }
        if (onLost) onLost(reason);
    };
    Connection own = connection_->openSibling();
    own.setCommandTimeout(
        std::min(own.commandTimeout(), std::max(options_.ttl / 3, milliseconds(1))));
    auto dog = std::make_shared<Watchdog>(std::move(own), lease, std::move(options));
    std::lock_guard lock(mutex_);
    watchdog_ = dog;
    return dog;
}

std::optional<HeldLock> RedisLock::hold(Clock::time_point deadline, HoldOptions options) {
    Acquisition acquired = acquireUntil(deadline, options.retry, options.stop);
    if (!acquired) return std::nullopt;
    auto state = std::make_shared<HeldLock::State>();
    state->fence = *acquired.fence;
    state->fenceRegressed = acquired.status == AcquireStatus::FenceRegressed;
    state->onLost = std::move(options.watchdog.onLost);
    // A weak reference: the state owns the watchdog, which must not own the state back.
    options.watchdog.onLost =
        [weak = std::weak_ptr<HeldLock::State>(state)](const std::string& reason) {
            if (auto state = weak.lock()) state->reportLost(reason);
        };
    try {
        state->watchdog = startWatchdog(std::move(options.watchdog));
    } catch (...) {
        unlock();  // a handle we cannot return must not leave the lock held
        throw;
    }
    return HeldLock(*this, std::move(state));
}

HeldLock::HeldLock(RedisLock& lock, std::shared_ptr<State> state)
    : lock_(&lock), state_(std::move(state)) {}

HeldLock::HeldLock(HeldLock&& other) noexcept
    : lock_(std::exchange(other.lock_, nullptr)), state_(std::move(other.state_)) {}

HeldLock& HeldLock::operator=(HeldLock&& other) noexcept {
    if (this != &other) {
        HeldLock previous(std::move(*this));  // released at the end of this block
        lock_ = std::exchange(other.lock_, nullptr);
        state_ = std::move(other.state_);
    }
    return *this;
}

HeldLock::~HeldLock() {
    if (!state_) return;
    try {
        release();
    } catch (...) {
        // The lease expires by itself; a destructor must not throw.
    }
}

const HeldLock::State& HeldLock::state() const {
    if (!state_) throw InvalidArgumentError("this HeldLock was moved from: it holds nothing");
    return *state_;
}

std::int64_t HeldLock::fence() const {
    return state().fence;
}

bool HeldLock::fenceRegressed() const {
    return state().fenceRegressed;
}

std::stop_token HeldLock::cancellation() const {
    return state().cancel.get_token();
}

bool HeldLock::lost() const {
    std::lock_guard lock(state().mutex);
    return state_->lost;
}

std::string HeldLock::lostReason() const {
    std::lock_guard lock(state().mutex);
    return state_->lostReason;
}

RedisLock& HeldLock::lock() const {
    state();
    return *lock_;
}

bool HeldLock::release() {
    state();
    {
        std::lock_guard lock(state_->mutex);
        if (state_->released) return false;
        state_->released = true;
    }
    bool deleted = lock_->release();  // stops the watchdog first
    state_->watchdog.reset();         // its connection is closed with it
    if (!deleted)
        state_->reportLost("at release " + lock_->key() +
                           " no longer held our token (it expired or another client took it)");
    return deleted && !lost();
}

}  // namespace lockscope
