// RedisLock::hold(), startWatchdog() and the HeldLock handle they produce: what runs while
// a lock is held.
#include "lockscope/held_lock.h"

#include <functional>
#include <mutex>
#include <utility>

#include "held_lock_state.h"
#include "local_gate.h"
#include "lockscope/errors.h"
#include "lockscope/redis_lock.h"

namespace lockscope {

using std::chrono::duration_cast;
using std::chrono::microseconds;
using std::chrono::milliseconds;

HeldLock::State::~State() = default;

void HeldLock::State::reportLost(const std::string& reason) {
    std::function<void(const std::string&)> callback;
    {
        std::lock_guard guard(mutex);
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

RedisLock* HeldLock::State::take() {
    std::lock_guard guard(mutex);
    if (released) return nullptr;
    released = true;
    return lock;
}

bool HeldLock::State::detach() {
    std::lock_guard guard(mutex);
    lock = nullptr;
    return !std::exchange(released, true);
}

// The watchdog's own connection is the one that renews: it carries the name the holder hash
// records, so an inspector finds the holder there too. Best effort: a refusal only leaves
// the inspector less to go on.
void RedisLock::nameWatchdogConnection(Connection& own) const {
    if (connectionName_.empty()) return;
    try {
        own.command({"CLIENT", "SETNAME", connectionName_});
    } catch (const CancelledError&) {
        throw;
    } catch (const Error&) {
    }
}

std::shared_ptr<Watchdog> RedisLock::startWatchdog(WatchdogOptions options) {
    if (!isHeld())
        throw InvalidArgumentError("cannot watch " + key_ +
                                   ": the lock is not held (acquire it first)");
    Lease lease{key_, token_, options_.ttl, {}, holderKey_};
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
    nameWatchdogConnection(own);
    own.setCommandTimeout(
        std::min(own.commandTimeout(), std::max(options_.ttl / 3, milliseconds(1))));
    auto dog = std::make_shared<Watchdog>(std::move(own), lease, std::move(options));
    std::lock_guard lock(mutex_);
    watchdog_ = dog;
    return dog;
}

// What hold() refuses before it sends anything, so a refused call never touches a lease.
// `gateClosed`: this call holds the object, so a running watchdog is a manual one.
void RedisLock::checkHoldable(const HoldOptions& options, bool gateClosed) const {
    if (options.watchdog.interval >= options_.ttl - leaseSafetyMargin(options_.ttl))
        throw InvalidArgumentError(
            "watchdog interval " + std::to_string(options.watchdog.interval.count()) +
            " ms is not shorter than the lease of " + key_ + " (" +
            std::to_string(options_.ttl.count()) + " ms): use 0 for ttl / 3");
    if (!gateClosed) return;
    if (auto running = watchdog(); running && !running->lost())
        throw InvalidArgumentError("a watchdog started by startWatchdog() already renews " + key_ +
                                   ": release() the lock before hold()");
}

std::optional<HeldLock> RedisLock::hold(Clock::time_point deadline, HoldOptions options) {
    checkHoldable(options, false);
    // One holder per lock object (a HeldLock or the standard interface): a second hold()
    // waits for it, and never reaches the lease the first one holds.
    if (!gate_->closeBefore(deadline, options.stop)) return std::nullopt;
    detail::GateHold gate(*gate_);
    checkHoldable(options, true);
    bool heldBefore = fence().has_value();
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
        // A handle we cannot return must not leave a lock this call took; a lease that was
        // ours before the call (acquire()) stays as it was.
        if (!heldBefore) {
            try {
                (void)release();
            } catch (...) {
                // The TTL frees it; the caller hears the first error.
            }
        }
        throw;
    }
    state->lock = this;
    state->lockAlive = gate_;
    handle_ = state;
    gate.commit();  // the handle's release() opens it
    return HeldLock(std::move(state));
}

bool RedisLock::releaseHeld() {
    detail::GateHold gate(*gate_);  // whatever release() does, the handle is done
    handle_.reset();
    return release();
}

void RedisLock::detachHandle() noexcept {
    auto state = handle_.lock();
    if (!state || !state->detach()) return;
    bool deleted = false;
    try {
        deleted = releaseHeld();
    } catch (...) {
        // The TTL frees the key; the handle is told below either way.
    }
    state->reportLost("the RedisLock for " + key_ + " was destroyed while this HeldLock held it: " +
                      (deleted ? "it released the key" : "the key expires with its TTL") +
                      "; the handle holds nothing");
}

HeldLock::HeldLock(std::shared_ptr<State> state) : state_(std::move(state)) {}

HeldLock::HeldLock(HeldLock&& other) noexcept : state_(std::move(other.state_)) {}

HeldLock& HeldLock::operator=(HeldLock&& other) noexcept {
    if (this != &other) {
        HeldLock previous(std::move(*this));  // released at the end of this block
        state_ = std::move(other.state_);
    }
    return *this;
}

HeldLock::~HeldLock() {
    if (!state_) return;
    try {
        (void)release();
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
    std::lock_guard guard(state().mutex);
    if (!state_->lock || state_->lockAlive.expired())
        throw InvalidArgumentError(
            "the RedisLock of this HeldLock was destroyed (lock "
            "destroyed): the handle holds nothing");
    return *state_->lock;
}

bool HeldLock::release() {
    state();
    RedisLock* lock = state_->take();
    if (!lock) return false;  // released already, or the lock was destroyed (reported then)
    bool deleted = false;
    try {
        deleted = lock->releaseHeld();  // stops the watchdog first
    } catch (...) {
        state_->watchdog.reset();
        throw;
    }
    state_->watchdog.reset();  // its connection is closed with it
    if (!deleted)
        state_->reportLost("at release " + lock->key() +
                           " no longer held our token (it expired or another client took it)");
    return deleted && !lost();
}

}  // namespace lockscope
