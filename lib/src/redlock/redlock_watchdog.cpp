#include "lockscope/redlock/redlock_watchdog.h"

#include "redlock_rounds.h"

namespace lockscope {
namespace {

// Stop retrying one node timeout before the validity ends, so a renewal round that starts
// in time can still finish inside it.
RenewalSchedule scheduleOf(const RedlockLease& lease) {
    // The lease was sent at validUntil − (TTL − drift); counting from validUntil − TTL renews
    // slightly early, never late.
    return {lease.ttl, lease.validUntil - lease.ttl, lease.validUntil - lease.nodeTimeout,
            "validity"};
}

}  // namespace

RedlockWatchdog::RedlockWatchdog(RedlockNodeSet nodes, RedlockLease lease, WatchdogOptions options)
    : nodes_(std::move(nodes)),
      lease_(std::move(lease)),
      validUntil_(lease_.validUntil.time_since_epoch().count()),
      watchdog_([this](Clock::time_point, Clock::time_point) { return renew(); },
                scheduleOf(lease_), std::move(options)) {}

RedlockWatchdog::~RedlockWatchdog() {
    stop();
}

RedlockWatchdog::Clock::time_point RedlockWatchdog::validUntil() const {
    return Clock::time_point(Clock::duration(validUntil_.load()));
}

void RedlockWatchdog::leaseRenewed(Clock::time_point validUntil) {
    auto current = validUntil_.load();
    while (validUntil.time_since_epoch().count() > current &&
           !validUntil_.compare_exchange_weak(current, validUntil.time_since_epoch().count())) {
    }
    watchdog_.leaseRenewed(validUntil - lease_.ttl, validUntil - lease_.nodeTimeout);
}

RedlockAttempt RedlockWatchdog::lastRenewal() const {
    std::lock_guard lock(mutex_);
    return lastRenewal_;
}

Renewal RedlockWatchdog::renew() {
    const redlock_detail::LeaseSpec spec{lease_.key, lease_.token, lease_.ttl, lease_.nodeTimeout};
    RedlockAttempt attempt = redlock_detail::extendRound(nodes_, spec, validUntil());
    {
        std::lock_guard lock(mutex_);
        lastRenewal_ = attempt;
    }
    if (attempt.succeeded) {
        auto until = attempt.validUntil().time_since_epoch().count();
        auto current = validUntil_.load();
        while (until > current && !validUntil_.compare_exchange_weak(current, until)) {
        }
        return Renewal::renewed(attempt.validUntil() - lease_.nodeTimeout);
    }
    // More nodes said "not our token" than the lock can spare: no retry can make a majority
    // again, so report it now rather than at the end of the validity.
    if (attempt.refused() > static_cast<int>(attempt.nodes.size()) - attempt.quorum)
        return Renewal::lost("renewal failed on a majority: " + attempt.failure);
    return Renewal::failed(attempt.failure);
}

}  // namespace lockscope
