#pragma once
// Lease renewal on a background thread, after Redisson's watchdog but loud where that one
// is silent: a renewal that says the lock is gone, or renewals that keep failing until the
// lease would have run out, mark the lock lost, call a callback and request cancellation of
// the work.
//
// The loop (own thread, renew every interval, retry failures until a deadline, lost-lock
// callback, stop() joins before it returns) is the same for every kind of lease; what a
// renewal sends is a function. The Connection constructor renews a single-instance lease
// with the guide's extend script; RedlockWatchdog passes a majority renewal over N nodes.
//
// Thread rules: every public member may be called from any thread, the watchdog's own
// included. stop() and the destructor called from inside onLost (on the watchdog's thread)
// do not join their own thread: they ask it to end, and it ends as soon as onLost returns.
// What onLost may do: anything that does not wait for the watchdog's thread — log, count,
// set a flag, call RedisLock::release() or Redlock::release() (they stop this watchdog
// without joining and send nothing: the lock is already lost), even destroy the lock.
// It must not block for long: nothing else is renewed meanwhile (the lock is lost anyway).
// An exception thrown by onLost is caught and dropped (a thread cannot throw).

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
    // The lock's holder hash (LockOptions::holder), extended with it; empty: none.
    std::string holderKey{};
};

struct WatchdogOptions {
    // 0: ttl / 3. Must be shorter than the lease (InvalidArgumentError otherwise: no
    // renewal would ever be sent before it ran out).
    std::chrono::milliseconds interval{0};
    // Called once, on the watchdog thread, with the reason, when the lock is lost. See the
    // thread rules above for what it may do.
    std::function<void(const std::string& reason)> onLost{};
};

// What one renewal achieved, as a renew function reports it.
struct Renewal {
    using Clock = std::chrono::steady_clock;
    enum class Result {
        Renewed,  // the lease was extended; `deadline` is the new one
        Lost,     // the lock is certainly gone (another token, or no majority left): stop
        Failed,   // no answer this time (I/O error, timeout): retry until the deadline
    };
    Result result = Result::Failed;
    Clock::time_point deadline{};  // Renewed: when to declare the lease lost unless renewed again
    std::string reason;            // Lost: why; Failed: the error, quoted if retries run out

    static Renewal renewed(Clock::time_point deadline) { return {Result::Renewed, deadline, {}}; }
    static Renewal lost(std::string why) { return {Result::Lost, {}, std::move(why)}; }
    static Renewal failed(std::string why) { return {Result::Failed, {}, std::move(why)}; }
};

// Sends one renewal, on the watchdog's thread. `sentAt` was taken just before the call;
// `deadline` is the current one (a renewal must not wait past it).
using RenewFunction = std::function<Renewal(std::chrono::steady_clock::time_point sentAt,
                                            std::chrono::steady_clock::time_point deadline)>;

// When a lease was last confirmed and when it must be given up, for a renew function.
struct RenewalSchedule {
    std::chrono::milliseconds ttl;                      // the interval defaults to ttl / 3
    std::chrono::steady_clock::time_point confirmedAt;  // send time of what last set the TTL
    std::chrono::steady_clock::time_point deadline;     // declare it lost here unless renewed
    std::string leaseName = "lease";                    // as in "until the lease ran out"
};

// How long before the TTL runs out on our clock a single-instance lease is given up: the
// report must come no later than the expiry on the server (whose lease started after our
// send time). TTL / 20, at least 2 ms.
std::chrono::milliseconds leaseSafetyMargin(std::chrono::milliseconds ttl);

class Watchdog {
  public:
    using Clock = std::chrono::steady_clock;

    // Renews a single-instance lease with the extend script over its own connection (a
    // connection belongs to one thread). Lost when the script returns 0, or when renewals
    // keep failing until shortly before the TTL would run out on our clock.
    // Throws InvalidArgumentError for an interval not shorter than the lease.
    Watchdog(Connection connection, const Lease& lease, WatchdogOptions options);
    // Renews any lease with `renew`, starting one interval after schedule.confirmedAt.
    // Throws InvalidArgumentError for an interval not shorter than
    // schedule.deadline − schedule.confirmedAt.
    Watchdog(RenewFunction renew, RenewalSchedule schedule, WatchdogOptions options);
    ~Watchdog();
    Watchdog(const Watchdog&) = delete;
    Watchdog& operator=(const Watchdog&) = delete;

    // Stops renewing and joins the thread: no renewal is sent after this returns. Called on
    // the watchdog's own thread (from onLost) it only asks the thread to end.
    void stop() noexcept;

    // Someone else renewed the lease (a manual extend): the next renewal is due one interval
    // after `confirmedAt`, and the lease is not given up before `deadline`.
    void leaseRenewed(Clock::time_point confirmedAt, Clock::time_point deadline);

    bool lost() const { return lost_.load(); }
    std::string lostReason() const;
    // Requested when the lock is lost: the work loop polls it (or registers a callback).
    std::stop_token cancellation() const { return cancel_.get_token(); }
    int renewals() const { return renewals_.load(); }
    // When the lease is given up unless renewed again (moves with every renewal).
    Clock::time_point deadline() const;
    // True on the watchdog's own thread (inside onLost or a renew function).
    bool onOwnThread() const;

  private:
    void run(std::stop_token stop);
    void markLost(const std::string& reason);

    RenewFunction renew_;
    RenewalSchedule schedule_;
    WatchdogOptions options_;
    std::atomic<bool> lost_{false};
    std::atomic<int> renewals_{0};
    mutable std::mutex mutex_;
    std::condition_variable_any wake_;
    std::string lostReason_;
    // Guarded by mutex_: the deadline and next renewal, moved by renewals and leaseRenewed().
    Clock::time_point deadline_{};
    Clock::time_point nextRenewal_{};
    std::atomic<std::thread::id> ownThread_{};
    std::stop_source cancel_;
    std::jthread thread_;
};

}  // namespace lockscope
