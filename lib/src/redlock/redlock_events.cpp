// The events a Redlock's observer hears: one per call (acquire, extend, release) with the
// round it comes from, and Lost from the watchdog's thread.

#include "redlock_events.h"

#include "lockscope/redlock/redlock.h"

namespace lockscope {
namespace {

using std::chrono::duration_cast;
using std::chrono::microseconds;
using Clock = std::chrono::steady_clock;

void deliver(const LockObserver& observer, const LockEvent& event) noexcept {
    try {
        observer(event);
    } catch (...) {
        // A broken logger must not break locking.
    }
}

}  // namespace

namespace redlock_detail {

void WatchdogSlot::set(const std::shared_ptr<RedlockWatchdog>& dog) {
    std::lock_guard lock(mutex_);
    dog_ = dog;
}

std::shared_ptr<RedlockWatchdog> WatchdogSlot::get() const {
    std::lock_guard lock(mutex_);
    return dog_.lock();
}

std::shared_ptr<WatchdogSlot> reportLossTo(LockObserver observer, std::string key,
                                           Clock::time_point acquiredAt, WatchdogOptions& options) {
    auto slot = std::make_shared<WatchdogSlot>();
    options.onLost = [observer = std::move(observer), key = std::move(key), acquiredAt, slot,
                      onLost = std::move(options.onLost)](const std::string& reason) {
        std::optional<RedlockAttempt> last;
        if (auto dog = slot->get()) {
            RedlockAttempt renewal = dog->lastRenewal();
            if (!renewal.nodes.empty()) last = std::move(renewal);
        }  // the watchdog reference is dropped before onLost, which may destroy the lock
        if (observer)
            deliver(observer, {.kind = LockEventKind::Lost,
                               .key = key,
                               .held = duration_cast<microseconds>(Clock::now() - acquiredAt),
                               .reason = reason,
                               .round = last ? &*last : nullptr});
        if (onLost) onLost(reason);
    };
    return slot;
}

}  // namespace redlock_detail

void Redlock::notify(LockEvent event, const RedlockAttempt* round) const {
    if (!options_.observer) return;
    event.key = key_;
    event.round = round;
    deliver(options_.observer, event);
}

microseconds Redlock::heldFor() const {
    std::lock_guard lock(mutex_);
    return duration_cast<microseconds>(Clock::now() - acquiredAt_);
}

void Redlock::notifyAcquire(const RedlockAttempt& attempt, Clock::time_point startedAt) const {
    auto waited = duration_cast<microseconds>(Clock::now() - startedAt);
    if (attempt.succeeded)
        notify({.kind = LockEventKind::Acquired, .waited = waited}, &attempt);
    else
        notify({.kind = LockEventKind::AcquireFailed, .waited = waited, .reason = attempt.failure},
               &attempt);
}

void Redlock::notifyExtend(const RedlockAttempt& attempt) const {
    if (attempt.succeeded)
        notify({.kind = LockEventKind::Extended, .held = heldFor()}, &attempt);
    else
        notify({.kind = LockEventKind::ExtendFailed, .held = heldFor(), .reason = attempt.failure},
               &attempt);
}

void Redlock::notifyRelease(const RedlockAttempt& attempt, Clock::time_point acquiredAt) const {
    notify({.kind = LockEventKind::Released,
            .held = duration_cast<microseconds>(Clock::now() - acquiredAt),
            .stillOwned = attempt.granted() >= attempt.quorum && attempt.quorum > 0},
           &attempt);
}

}  // namespace lockscope
