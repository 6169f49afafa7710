#include "lockscope/redlock/redlock.h"

#include <random>
#include <thread>

#include "lockscope/errors.h"
#include "lockscope/redlock/validity.h"
#include "lockscope/token.h"
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

Redlock::Redlock(RedlockNodeSet& nodes, std::string_view name, RedlockOptions options)
    : nodes_(nodes), name_(name), options_(std::move(options)) {
    validateLockName(name);
    validateTiming(options_);
    key_ = options_.lockPrefix + "{" + name_ + "}";
    token_ = randomToken();
}

Redlock::~Redlock() {
    stopWatchdog();
}

void Redlock::report(const RedlockAttempt& attempt) const {
    if (options_.onAttempt) options_.onAttempt(attempt);
}

RedlockAttempt Redlock::tryAcquire() {
    return attemptOnce(1);
}

RedlockAttempt Redlock::attemptOnce(int number) {
    redlock_detail::LeaseSpec lease{key_, token_, options_.ttl, options_.nodeTimeout};
    watchdog_.reset();  // a watchdog of an earlier lease must not vouch for this one
    RedlockAttempt attempt = redlock_detail::acquireRound(nodes_, lease, number);
    report(attempt);
    if (attempt.succeeded) {
        held_ = true;
        validUntil_ = attempt.validUntil();
        return attempt;
    }
    held_ = false;
    // Release everywhere, the nodes that erred included: a SET may have landed on a node
    // whose reply was lost or late, and that key would block everyone until its TTL.
    report(redlock_detail::releaseRound(nodes_, lease));
    return attempt;
}

RedlockAttempt Redlock::acquire(Clock::time_point deadline, RetryOptions retry) {
    thread_local std::minstd_rand jitterSource{std::random_device{}()};  // timing only, not tokens
    for (int number = 1;; ++number) {
        RedlockAttempt attempt = attemptOnce(number);
        if (attempt.succeeded) return attempt;
        auto jitter = retry.jitter.count() > 0
                          ? milliseconds(jitterSource() % (retry.jitter.count() + 1))
                          : milliseconds(0);
        auto next = Clock::now() + retry.delay + jitter;
        if (next >= deadline) return attempt;
        std::this_thread::sleep_until(next);
    }
}

RedlockAttempt Redlock::extend() {
    redlock_detail::LeaseSpec lease{key_, token_, options_.ttl, options_.nodeTimeout};
    RedlockAttempt attempt =
        redlock_detail::extendRound(nodes_, lease, held_ ? validUntil() : Clock::time_point{});
    if (!held_) attempt.failure = "not held: acquire first; nothing was sent";
    if (attempt.succeeded) validUntil_ = attempt.validUntil();
    report(attempt);
    return attempt;
}

RedlockAttempt Redlock::release() {
    stopWatchdog();
    held_ = false;
    validUntil_ = {};
    RedlockAttempt attempt =
        redlock_detail::releaseRound(nodes_, {key_, token_, options_.ttl, options_.nodeTimeout});
    report(attempt);
    return attempt;
}

Redlock::Clock::time_point Redlock::validUntil() const {
    if (!held_) return {};
    if (watchdog_)
        return watchdog_->lost() ? Clock::time_point{}
                                 : std::max(validUntil_, watchdog_->validUntil());
    return validUntil_;
}

bool Redlock::isValid() const {
    return held_ && Clock::now() < validUntil();
}

microseconds Redlock::validityLeft() const {
    auto left = std::chrono::duration_cast<microseconds>(validUntil() - Clock::now());
    return held_ && left > microseconds::zero() ? left : microseconds::zero();
}

RedlockWatchdog& Redlock::startWatchdog(WatchdogOptions options) {
    if (!isValid())
        throw InvalidArgumentError("cannot watch " + key_ + ": the Redlock is not held");
    auto until = validUntil();
    stopWatchdog();
    watchdog_.reset();
    watchdog_ = std::make_unique<RedlockWatchdog>(
        nodes_.sibling(), RedlockLease{key_, token_, options_.ttl, options_.nodeTimeout, until},
        std::move(options));
    return *watchdog_;
}

void Redlock::stopWatchdog() noexcept {
    if (!watchdog_) return;
    watchdog_->stop();
    // Keep what the renewals achieved; the watchdog object itself stays for lost()/reason.
    if (!watchdog_->lost())
        validUntil_ = std::max(validUntil_, watchdog_->validUntil());
    else
        validUntil_ = {};
}

RedlockGuard::~RedlockGuard() noexcept {
    try {
        lock_->release();
    } catch (...) {
        // The lease expires by itself; a destructor must not throw.
    }
}

}  // namespace lockscope
