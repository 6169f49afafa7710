#pragma once
// Redlock: one lock over N independent Redis primaries (no replication between them), as
// the Redlock spec and the guide describe it.
//
// What it does. acquire sends SET lock:{name} <token> NX PX <ttl> to every node at once
// (all requests are written before any reply is read), waits for each node at most
// nodeTimeout (far below the TTL), and holds the lock only if a majority (N/2 + 1) granted
// it and the validity TTL − elapsed − (TTL × 0.01 + 2 ms), measured on steady_clock, is
// still positive. On failure it releases on every node, including those that seemed to
// fail, and acquire(deadline) retries after a random delay. extend counts only with a
// majority that answers within the current validity. release and extend are owner-checked
// (the guide's Lua scripts), so they never touch another client's key. Every round returns
// a RedlockAttempt that says, per node, granted / refused / error and why.
//
// What it does NOT give — read this before relying on it for correctness:
//   * No fencing token. Each node could count, but the counters of independent nodes do
//     not agree, so there is no single increasing number a resource could check. A client
//     that pauses (GC, VM suspension, swapping) past its validity can still write after
//     another client acquired; only a fencing token checked by the resource stops that
//     (see FencedStore with a single-instance RedisLock, or use ZooKeeper/etcd).
//   * Safety rests on timing assumptions: process pauses, network delays and clock drift
//     must stay well inside the validity. A node whose clock jumps forward (NTP step,
//     manual change) expires our key early and lets a second client in (Kleppmann's
//     critique; antirez's reply argues the assumptions are reasonable in practice).
//   * A node that restarts without persistence (or with fsync "everysec") forgets our key
//     and can hand the lock to a second client while we still count it in our majority.
//     Keep such a node out for at least the maximum TTL after a restart, or run it with
//     appendfsync always.
// For locks that only save work (efficiency), a single RedisLock is simpler; for
// correctness, fence the resource.
//
// Thread rules: a Redlock and its RedlockNodeSet belong to one thread at a time. The
// watchdog renews on its own thread over a sibling node set; RedlockAttempt is a plain value.
// isValid(), validUntil(), validityLeft(), watchdog() and release() may also be called from
// the watchdog's onLost (release() there sends nothing: the lock is already lost, and the
// node set belongs to the other thread). Not copyable, not movable.
//
// Errors: rounds never throw for a node's failure (the RedlockAttempt says what each node
// did); the constructor and startWatchdog() throw InvalidArgumentError as noted.

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "lockscope/lock_observer.h"
#include "lockscope/redis_lock.h"
#include "lockscope/redlock/node_set.h"
#include "lockscope/redlock/redlock_attempt.h"
#include "lockscope/redlock/redlock_watchdog.h"

namespace lockscope {

struct RedlockOptions {
    std::chrono::milliseconds ttl{10'000};
    // How long a round waits for the slowest node. 0: redlockDefaultNodeTimeout(ttl).
    // Must be below TTL / 2 (InvalidArgumentError), and should be far below it.
    std::chrono::milliseconds nodeTimeout{0};
    std::string lockPrefix = "lock:";  // key = prefix + "{" + name + "}", as RedisLock
    // Called on the calling thread after every round (each acquire attempt, the release
    // after a failed attempt, extend, release): the inspector and teaching panel show them.
    std::function<void(const RedlockAttempt&)> onAttempt{};
    // Optional: hears the outcome of each call as a LockEvent whose `round` is the
    // RedlockAttempt — Acquired or AcquireFailed once per tryAcquire()/acquire(deadline)
    // (waited: since the call began), Extended or ExtendFailed per extend(), Released per
    // release() of a lock we held, Lost from the watchdog's thread (with its last renewal
    // round). Watchdog renewals and the clean-up release after a failed attempt are not
    // events (onAttempt shows those rounds). Same rules as LockOptions::observer: quick, no
    // calls back into this lock, exceptions dropped.
    LockObserver observer{};
};

class Redlock {
  public:
    using Clock = std::chrono::steady_clock;

    // Shares the node set: it lives as long as any lock that uses it. Throws
    // InvalidArgumentError for a null node set, a bad name (see validateLockName), TTL ≤ 0,
    // a TTL too short to leave any validity after the drift allowance and the node timeout,
    // a node timeout ≤ 0 or ≥ TTL / 2, or a lock prefix with braces or control bytes
    // (validateKeyPrefix). A fresh 128-bit token from the OS CSPRNG
    // identifies this lock on every node.
    Redlock(std::shared_ptr<RedlockNodeSet> nodes, std::string_view name,
            RedlockOptions options = {});
    // Takes the node set over: Redlock lock(RedlockNodeSet(endpoints), "job").
    Redlock(RedlockNodeSet&& nodes, std::string_view name, RedlockOptions options = {});
    ~Redlock();  // stops the watchdog; does not release (use RedlockGuard for that)
    Redlock(const Redlock&) = delete;
    Redlock& operator=(const Redlock&) = delete;

    // One attempt. On failure the keys are released on every node before it returns —
    // unless we held the lock when it started: a repeated acquire renews a lock we hold
    // (nodes with our token reset its TTL and count as granted) and never releases it; if
    // that renewal falls short the lock stays as it was, valid until validUntil().
    // Never throws for a node's failure: the attempt says what happened on each node.
    [[nodiscard]] RedlockAttempt tryAcquire();
    // Attempts until one succeeds or the next would start after the deadline, waiting
    // delay + a random share of jitter between attempts. Returns the last attempt.
    RedlockAttempt acquire(Clock::time_point deadline, RetryOptions retry = {});

    // Renews the TTL on every node; holds only with a majority within the current validity.
    // On failure the lock stays as it was (it still holds until validUntil(), if at all).
    // A success also moves the watchdog's deadline.
    RedlockAttempt extend();
    // Deletes our key on every node (owner-checked). Stops the watchdog first; afterwards
    // watchdog() is null.
    RedlockAttempt release();

    // One round trip to every node: our token is on a majority now.
    bool ownedOnServer();

    // True while we hold a majority and the validity has not run out on our clock (taking
    // the watchdog's renewals into account, and false once it reported the lock lost).
    bool isValid() const;
    Clock::time_point validUntil() const;
    std::chrono::microseconds validityLeft() const;  // 0 when not valid

    // Renews every TTL / 3 (or options.interval) on a background thread with a sibling node
    // set, and reports the lock lost when a majority can no longer be reached. Throws
    // InvalidArgumentError when the lock is not held, when a watchdog already runs for it
    // (watchdog() returns that one), or for an interval not shorter than the validity.
    std::shared_ptr<RedlockWatchdog> startWatchdog(WatchdogOptions options = {});
    std::shared_ptr<RedlockWatchdog> watchdog() const;

    const std::string& name() const { return name_; }
    const std::string& key() const { return key_; }
    const std::string& token() const { return token_; }
    std::chrono::milliseconds ttl() const { return options_.ttl; }
    std::chrono::milliseconds nodeTimeout() const { return options_.nodeTimeout; }
    RedlockNodeSet& nodes() { return *nodes_; }

  private:
    RedlockAttempt attemptOnce(int number);
    void report(const RedlockAttempt& attempt) const;
    // The observer's events (redlock_events.cpp).
    void notify(LockEvent event, const RedlockAttempt* round) const;
    void notifyAcquire(const RedlockAttempt& attempt, Clock::time_point startedAt) const;
    void notifyExtend(const RedlockAttempt& attempt) const;
    void notifyRelease(const RedlockAttempt& attempt, Clock::time_point acquiredAt) const;
    WatchdogOptions observedLoss(WatchdogOptions options);
    std::chrono::microseconds heldFor() const;
    Clock::time_point validUntilLocked() const;  // mutex_ held

    std::shared_ptr<RedlockNodeSet> nodes_;
    std::string name_, key_, token_;
    RedlockOptions options_;
    mutable std::mutex mutex_;  // guards what follows: onLost may read it from another thread
    bool held_ = false;
    Clock::time_point acquiredAt_{};  // when the round that took the lock (not a renewal) began
    Clock::time_point validUntil_{};
    std::shared_ptr<RedlockWatchdog> watchdog_;
};

// Releases on scope exit; never throws from its destructor (the TTL frees what a failed
// release leaves behind).
class RedlockGuard {
  public:
    explicit RedlockGuard(Redlock& lock) : lock_(&lock) {}
    ~RedlockGuard() noexcept;
    RedlockGuard(const RedlockGuard&) = delete;
    RedlockGuard& operator=(const RedlockGuard&) = delete;

  private:
    Redlock* lock_;
};

}  // namespace lockscope
