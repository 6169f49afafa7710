#include "lockscope/redlock/redlock_watchdog.h"

#include <algorithm>

#include "redlock_rounds.h"

namespace lockscope {
namespace {

using std::chrono::milliseconds;

}  // namespace

RedlockWatchdog::RedlockWatchdog(RedlockNodeSet nodes, RedlockLease lease, WatchdogOptions options)
    : nodes_(std::move(nodes)),
      lease_(std::move(lease)),
      options_(std::move(options)),
      validUntil_(lease_.validUntil.time_since_epoch().count()) {
    if (options_.interval.count() <= 0)
        options_.interval = std::max(milliseconds(1), lease_.ttl / 3);
    thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
}

RedlockWatchdog::~RedlockWatchdog() {
    stop();
}

void RedlockWatchdog::stop() noexcept {
    if (!thread_.joinable()) return;
    thread_.request_stop();
    wake_.notify_all();
    thread_.join();
}

std::string RedlockWatchdog::lostReason() const {
    std::lock_guard lock(mutex_);
    return lostReason_;
}

RedlockWatchdog::Clock::time_point RedlockWatchdog::validUntil() const {
    return Clock::time_point(Clock::duration(validUntil_.load()));
}

RedlockAttempt RedlockWatchdog::lastRenewal() const {
    std::lock_guard lock(mutex_);
    return lastRenewal_;
}

void RedlockWatchdog::run(std::stop_token stop) {
    const redlock_detail::LeaseSpec spec{lease_.key, lease_.token, lease_.ttl, lease_.nodeTimeout};
    // The lease was sent at validUntil − (TTL − drift); renew a third of the TTL after that.
    auto nextRenewal = lease_.validUntil - lease_.ttl + options_.interval;
    std::string lastFailure;
    while (!stop.stop_requested()) {
        // Stop retrying one node timeout before the end, so a renewal round can still finish
        // inside the validity.
        auto deadline = validUntil() - lease_.nodeTimeout;
        {
            std::unique_lock lock(mutex_);
            wake_.wait_until(lock, stop, std::min(nextRenewal, deadline), [] { return false; });
        }
        if (stop.stop_requested()) return;
        if (Clock::now() >= deadline) {
            markLost("renewals kept failing until the validity ran out" +
                     (lastFailure.empty() ? std::string() : " (last: " + lastFailure + ")"));
            return;
        }
        RedlockAttempt attempt = redlock_detail::extendRound(nodes_, spec, validUntil());
        {
            std::lock_guard lock(mutex_);
            lastRenewal_ = attempt;
        }
        if (attempt.succeeded) {
            validUntil_.store(attempt.validUntil().time_since_epoch().count());
            renewals_.fetch_add(1);
            nextRenewal = attempt.sentAt + options_.interval;
            lastFailure.clear();
            continue;
        }
        // More nodes said "not our token" than the lock can spare: no retry can make a
        // majority again, so report it now rather than at the end of the validity.
        if (attempt.refused() > static_cast<int>(attempt.nodes.size()) - attempt.quorum) {
            markLost("renewal failed on a majority: " + attempt.failure);
            return;
        }
        lastFailure = attempt.failure;
        nextRenewal = Clock::now() + std::max(milliseconds(1), options_.interval / 4);
    }
}

void RedlockWatchdog::markLost(const std::string& reason) {
    {
        std::lock_guard lock(mutex_);
        lostReason_ = reason;
    }
    lost_.store(true);
    cancel_.request_stop();
    if (options_.onLost) options_.onLost(reason);
}

}  // namespace lockscope
