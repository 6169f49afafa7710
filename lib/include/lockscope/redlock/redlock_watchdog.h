#pragma once
// The foundation's watchdog for a Redlock: the same options (WatchdogOptions) and the same
// contract as Watchdog — renew every TTL / 3, and when the lock is lost say so loudly (lost(),
// lostReason(), the onLost callback) and request cancellation of the work — but a renewal
// counts only when a majority of the nodes renewed within the current validity.
//
// The lock is lost when a renewal shows a majority can no longer be reached (more nodes
// answered "not our token" than the lock can spare), or when renewals keep failing (nodes
// down or slow) until the validity runs out. Until then it keeps retrying, so two nodes
// down out of five do not stop it.
//
// The loop itself (thread, schedule, retries, the lost-lock callback, stop() joining) is the
// core Watchdog's, driven by a majority renewal instead of a single-instance one.
//
// Thread rules: renewals run on the watchdog's own thread over its own sibling node set;
// every public member may be called from any thread.

#include <atomic>
#include <chrono>
#include <mutex>
#include <stop_token>
#include <string>

#include "lockscope/redlock/node_set.h"
#include "lockscope/redlock/redlock_attempt.h"
#include "lockscope/watchdog.h"

namespace lockscope {

// What identifies a Redlock lease on every node.
struct RedlockLease {
    std::string key;
    std::string token;
    std::chrono::milliseconds ttl;
    std::chrono::milliseconds nodeTimeout;
    std::chrono::steady_clock::time_point validUntil;  // of the acquire (or last extend)
};

class RedlockWatchdog {
  public:
    using Clock = std::chrono::steady_clock;

    // Takes its own node set (a node set belongs to one thread).
    RedlockWatchdog(RedlockNodeSet nodes, RedlockLease lease, WatchdogOptions options);
    ~RedlockWatchdog();
    RedlockWatchdog(const RedlockWatchdog&) = delete;
    RedlockWatchdog& operator=(const RedlockWatchdog&) = delete;

    // Stops renewing and joins the thread: no renewal is sent after this returns. From
    // inside onLost it only asks the thread to end (see Watchdog).
    void stop() noexcept { watchdog_.stop(); }
    bool onOwnThread() const { return watchdog_.onOwnThread(); }
    // A manual extend renewed the lease until `validUntil`: renew one interval after it.
    void leaseRenewed(Clock::time_point validUntil);

    bool lost() const { return watchdog_.lost(); }
    std::string lostReason() const { return watchdog_.lostReason(); }
    std::stop_token cancellation() const { return watchdog_.cancellation(); }
    int renewals() const { return watchdog_.renewals(); }
    // The validity end after the last successful renewal.
    Clock::time_point validUntil() const;
    // The most recent renewal round (default-constructed before the first one).
    RedlockAttempt lastRenewal() const;

  private:
    Renewal renew();  // one majority renewal, on the watchdog's thread

    RedlockNodeSet nodes_;
    RedlockLease lease_;
    std::atomic<Clock::rep> validUntil_;
    mutable std::mutex mutex_;  // guards lastRenewal_
    RedlockAttempt lastRenewal_;
    Watchdog watchdog_;  // last: its thread starts once everything it renews with exists
};

}  // namespace lockscope
