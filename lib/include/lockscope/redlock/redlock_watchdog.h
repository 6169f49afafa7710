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
// Thread rules: renewals run on the watchdog's own thread over its own sibling node set;
// every public member may be called from any thread.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>

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

    // Stops renewing and joins the thread: no renewal is sent after this returns.
    void stop() noexcept;

    bool lost() const { return lost_.load(); }
    std::string lostReason() const;
    std::stop_token cancellation() const { return cancel_.get_token(); }
    int renewals() const { return renewals_.load(); }
    // The validity end after the last successful renewal.
    Clock::time_point validUntil() const;
    // The most recent renewal round (default-constructed before the first one).
    RedlockAttempt lastRenewal() const;

  private:
    void run(std::stop_token stop);
    void markLost(const std::string& reason);

    RedlockNodeSet nodes_;
    RedlockLease lease_;
    WatchdogOptions options_;
    std::atomic<bool> lost_{false};
    std::atomic<int> renewals_{0};
    std::atomic<Clock::rep> validUntil_;
    mutable std::mutex mutex_;
    std::condition_variable_any wake_;
    std::string lostReason_;
    RedlockAttempt lastRenewal_;
    std::stop_source cancel_;
    std::jthread thread_;
};

}  // namespace lockscope
