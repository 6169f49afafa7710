#include "lockscope/redlock/redlock.h"

#include <random>
#include <thread>
#include <utility>

#include "lockscope/errors.h"
#include "lockscope/redlock/validity.h"
#include "lockscope/token.h"
#include "node_set_access.h"
#include "redlock_events.h"
#include "redlock_rounds.h"

namespace lockscope {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

void validateTiming(RedlockOptions& options) {
    if (options.ttl.count() <= 0)
        throw InvalidArgumentError("Redlock TTL must be positive, got " +
                                   std::to_string(options.ttl.count()) + " ms");
    if (options.nodeTimeout.count() == 0)
        options.nodeTimeout = redlockDefaultNodeTimeout(options.ttl);
    if (options.nodeTimeout.count() < 0)
        throw InvalidArgumentError("Redlock node timeout must be positive, got " +
                                   std::to_string(options.nodeTimeout.count()) + " ms");
    if (options.nodeTimeout * 2 >= options.ttl)
        throw InvalidArgumentError(
            "Redlock node timeout " + std::to_string(options.nodeTimeout.count()) +
            " ms is not far below the " + std::to_string(options.ttl.count()) +
            " ms TTL (it must be under TTL / 2): one slow node would eat the lease");
    if (redlockValidity(options.ttl, microseconds(options.nodeTimeout)) <= microseconds::zero())
        throw InvalidArgumentError(
            "Redlock TTL " + std::to_string(options.ttl.count()) +
            " ms leaves no validity after the clock-drift allowance and the node timeout");
}

}  // namespace

static std::shared_ptr<RedlockNodeSet> required(std::shared_ptr<RedlockNodeSet> nodes) {
    if (!nodes) throw InvalidArgumentError("Redlock needs a node set, got a null one");
    return nodes;
}

Redlock::Redlock(std::shared_ptr<RedlockNodeSet> nodes, std::string_view name,
                 RedlockOptions options)
    : nodes_(required(std::move(nodes))), name_(name), options_(std::move(options)) {
    validateLockName(name);
    validateKeyPrefix(options_.lockPrefix, "lock prefix");
    validateTiming(options_);
    key_ = options_.lockPrefix + "{" + name_ + "}";
    token_ = randomToken();
}

Redlock::Redlock(RedlockNodeSet&& nodes, std::string_view name, RedlockOptions options)
    : Redlock(std::make_shared<RedlockNodeSet>(std::move(nodes)), name, std::move(options)) {}

Redlock::~Redlock() {
    std::shared_ptr<RedlockWatchdog> dog;
    {
        std::lock_guard lock(mutex_);
        dog = std::move(watchdog_);
    }
    if (dog) dog->stop();  // joins, unless this runs inside onLost on the watchdog's thread
}

void Redlock::report(const RedlockAttempt& attempt) const {
    if (options_.onAttempt) options_.onAttempt(attempt);
}

RedlockAttempt Redlock::tryAcquire() {
    auto startedAt = Clock::now();
    RedlockAttempt attempt = attemptOnce(1);
    notifyAcquire(attempt, startedAt);
    return attempt;
}

RedlockAttempt Redlock::attemptOnce(int number) {
    redlock_detail::LeaseSpec lease{key_, token_, options_.ttl, options_.nodeTimeout};
    bool heldBefore = isValid();
    bool mayHoldKeys;
    {
        std::lock_guard lock(mutex_);
        mayHoldKeys = held_;  // held, even if the validity ran out: our keys may linger
    }
    RedlockAttempt attempt = redlock_detail::acquireRound(*nodes_, lease, number, mayHoldKeys);
    report(attempt);
    if (attempt.succeeded) {
        std::lock_guard lock(mutex_);
        if (!heldBefore) acquiredAt_ = attempt.sentAt;
        held_ = true;
        validUntil_ = std::max(validUntil_, attempt.validUntil());
        if (watchdog_ && !watchdog_->lost()) watchdog_->leaseRenewed(attempt.validUntil());
        return attempt;
    }
    if (heldBefore) {
        // We held it when this started: the nodes that granted renewed our key, the rest
        // changed nothing. Releasing would give away a lock we hold.
        attempt.failure += "; the lock stays held as before, nothing was released";
        return attempt;
    }
    {
        std::lock_guard lock(mutex_);
        held_ = false;
        watchdog_.reset();  // a watchdog of an earlier lease must not vouch for this one
    }
    // Release everywhere, the nodes that erred included: a SET may have landed on a node
    // whose reply was lost or late, and that key would block everyone until its TTL.
    report(redlock_detail::releaseRound(*nodes_, lease));
    return attempt;
}

RedlockAttempt Redlock::acquire(Clock::time_point deadline, RetryOptions retry) {
    thread_local std::minstd_rand jitterSource{std::random_device{}()};  // timing only, not tokens
    auto startedAt = Clock::now();
    for (int number = 1;; ++number) {
        RedlockAttempt attempt = attemptOnce(number);
        auto jitter = retry.jitter.count() > 0
                          ? milliseconds(jitterSource() % (retry.jitter.count() + 1))
                          : milliseconds(0);
        auto next = Clock::now() + retry.delay + jitter;
        if (attempt.succeeded || isValid() || next >= deadline) {
            notifyAcquire(attempt, startedAt);
            return attempt;
        }
        std::this_thread::sleep_until(next);
    }
}

RedlockAttempt Redlock::extend() {
    redlock_detail::LeaseSpec lease{key_, token_, options_.ttl, options_.nodeTimeout};
    bool held;
    {
        std::lock_guard lock(mutex_);
        held = held_;
    }
    RedlockAttempt attempt =
        redlock_detail::extendRound(*nodes_, lease, held ? validUntil() : Clock::time_point{});
    if (!held) attempt.failure = "not held: acquire first; nothing was sent";
    if (attempt.succeeded) {
        std::lock_guard lock(mutex_);
        validUntil_ = std::max(validUntil_, attempt.validUntil());
        if (watchdog_ && !watchdog_->lost()) watchdog_->leaseRenewed(attempt.validUntil());
    }
    report(attempt);
    if (held) notifyExtend(attempt);
    return attempt;
}

RedlockAttempt Redlock::release() {
    std::shared_ptr<RedlockWatchdog> dog;
    bool wasHeld;
    Clock::time_point acquiredAt;
    {
        std::lock_guard lock(mutex_);
        dog = std::move(watchdog_);
        wasHeld = std::exchange(held_, false);
        acquiredAt = acquiredAt_;
        validUntil_ = {};
    }
    redlock_detail::LeaseSpec lease{key_, token_, options_.ttl, options_.nodeTimeout};
    if (dog && dog->onOwnThread()) {
        // Inside onLost: the lock is lost and the node set belongs to the other thread.
        dog->stop();
        RedlockAttempt attempt;
        attempt.operation = RedlockOperation::Release;
        attempt.key = key_;
        attempt.token = token_;
        attempt.failure = "released inside onLost: the lock was already lost, nothing was sent";
        if (wasHeld) notifyRelease(attempt, acquiredAt);
        return attempt;
    }
    if (dog) dog->stop();  // no renewal can follow the release
    RedlockAttempt attempt = redlock_detail::releaseRound(*nodes_, lease);
    report(attempt);
    if (wasHeld) notifyRelease(attempt, acquiredAt);
    return attempt;
}

bool Redlock::ownedOnServer() {
    auto replies =
        redlock_detail::NodeSetAccess::roundTrip(*nodes_, {{"GET", key_}}, options_.nodeTimeout);
    int ours = 0;
    for (const auto& node : replies)
        if (node.ok() && node.replies.front().text() == token_) ++ours;
    return ours >= nodes_->quorum();
}

Redlock::Clock::time_point Redlock::validUntilLocked() const {
    if (!held_) return {};
    if (watchdog_)
        return watchdog_->lost() ? Clock::time_point{}
                                 : std::max(validUntil_, watchdog_->validUntil());
    return validUntil_;
}

Redlock::Clock::time_point Redlock::validUntil() const {
    std::lock_guard lock(mutex_);
    return validUntilLocked();
}

bool Redlock::isValid() const {
    return Clock::now() < validUntil();
}

microseconds Redlock::validityLeft() const {
    auto left = std::chrono::duration_cast<microseconds>(validUntil() - Clock::now());
    return left > microseconds::zero() ? left : microseconds::zero();
}

std::shared_ptr<RedlockWatchdog> Redlock::watchdog() const {
    std::lock_guard lock(mutex_);
    return watchdog_;
}

std::shared_ptr<RedlockWatchdog> Redlock::startWatchdog(WatchdogOptions options) {
    Clock::time_point until, acquiredAt;
    {
        std::lock_guard lock(mutex_);
        until = validUntilLocked();
        acquiredAt = acquiredAt_;
        if (Clock::now() >= until)
            throw InvalidArgumentError("cannot watch " + key_ + ": the Redlock is not held");
        if (watchdog_ && !watchdog_->lost())
            throw InvalidArgumentError("a watchdog already renews " + key_ +
                                       "; watchdog() returns it");
        if (watchdog_) validUntil_ = std::max(validUntil_, watchdog_->validUntil());
    }
    auto slot = redlock_detail::reportLossTo(options_.observer, key_, acquiredAt, options);
    auto dog = std::make_shared<RedlockWatchdog>(
        nodes_->sibling(), RedlockLease{key_, token_, options_.ttl, options_.nodeTimeout, until},
        std::move(options));
    slot->set(dog);
    std::lock_guard lock(mutex_);
    watchdog_ = dog;
    return dog;
}

RedlockGuard::~RedlockGuard() noexcept {
    try {
        lock_->release();  // never throws for a node's failure; std::bad_alloc is swallowed
    } catch (...) {
        // The lease expires by itself; a destructor must not throw.
    }
}

}  // namespace lockscope
