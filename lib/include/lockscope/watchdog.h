#pragma once
// Lease renewal on a background thread, after Redisson's watchdog but loud where that one
// is silent: a renewal that returns 0, or renewals that keep failing until the lease would
// have run out, mark the lock lost, call a callback and request cancellation of the work.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>

#include "lockscope/connection.h"

namespace lockscope {

// What identifies a lease on the server.
struct Lease {
    std::string key;
    std::string token;
    std::chrono::milliseconds ttl;
    std::chrono::steady_clock::time_point startedAt;  // when the acquiring command was sent
};

struct WatchdogOptions {
    std::chrono::milliseconds interval{0};  // 0: ttl / 3
    // Called once, on the watchdog thread, with the reason, when the lock is lost.
    std::function<void(const std::string& reason)> onLost;
};

class Watchdog {
public:
    using Clock = std::chrono::steady_clock;

    // Takes its own connection (a connection belongs to one thread).
    Watchdog(Connection connection, Lease lease, WatchdogOptions options);
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

    // Stops renewing and joins the thread: no renewal is sent after this returns.
    void stop() noexcept;

    bool lost() const { return lost_.load(); }
    std::string lostReason() const;
    // Requested when the lock is lost: the work loop polls it (or registers a callback).
    std::stop_token cancellation() const { return cancel_.get_token(); }
    int renewals() const { return renewals_.load(); }

private:
    void run(std::stop_token stop);
    bool renewOnce(Clock::time_point deadline);  // true: renewed; throws IoError / ReplyError
    void markLost(const std::string& reason);

    Connection connection_;
    Lease lease_;
    WatchdogOptions options_;
    std::atomic<bool> lost_{false};
    std::atomic<int> renewals_{0};
    mutable std::mutex mutex_;
    std::condition_variable_any wake_;
    std::string lostReason_;
    std::stop_source cancel_;
    std::jthread thread_;
};

}  // namespace lockscope
