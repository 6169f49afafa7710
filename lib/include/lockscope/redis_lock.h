#pragma once
// The guide's single-instance lock: SET lock:{name} <token> NX PX ttl with a fencing
// counter fence:{name}, owner-checked extend and release, an optional watchdog, a held-lock
// handle (hold()) and the standard TimedLockable interface (std::unique_lock works).
//
// Fences. Each successful acquire INCRs fence:{name}, and a resource that remembers the
// highest fence it accepted (FencedStore) refuses a holder that paused past its lease. The
// counter lives in Redis: a server restarted without persistence (or a failover to a replica
// that missed the last INCR) starts it again at 1, so a legitimate new holder gets a fence
// lower than the resource's and every write it makes is refused. This process remembers the
// highest fence it saw per lock and server; a lower one is reported (AcquireStatus::
// FenceRegressed and a FenceRegressed event to the observer). The remedy: persist the fence
// key (appendonly yes with appendfsync always on the lock server), or seed the counter from
// the resource's own highest accepted fence after a restart (SET fence:{name} <that value>).
//
// Thread rules: a RedisLock is used by one thread at a time, like its Connection (locks that
// share a connection share its thread). Exceptions: isHeld(), fence(), watchdog() and
// release() may also be called from the watchdog's onLost (release() there sends nothing:
// the lock is already lost, and the connection belongs to the other thread); the standard
// interface (lock(), try_lock*(), unlock()) may be called from several threads at once, as
// a std::timed_mutex's. Not copyable, not movable: a watchdog, a HeldLock and
// std::unique_lock refer to it.
//
// Exclusion: the standard interface and hold() hold a RedisLock object like a
// std::timed_mutex, not recursively: while it is held through lock()/try_lock*() or a live
// HeldLock, try_lock() returns false at once, try_lock_for/until() and hold() wait (locally,
// sending nothing) for unlock() or the handle's release until their deadline, and lock()
// until then or until its stop_token is requested. The lease the holder has is never
// touched by such a waiting or refused call. acquire() and tryAcquire() are the low-level
// calls and stay idempotent: they do not take part in this exclusion, and a repeated
// acquire() finds our own token and returns the current fence (a retry after a lost reply).
//
// Deadlines: a call with a deadline (acquire(deadline), hold(), try_lock_for/until) caps
// every command, and reconnect, at the time left, so a stalled server cannot stretch it past
// the deadline by more than a few milliseconds; try_lock() is one attempt within the
// connection's commandTimeout in all. An attempt whose reply never came before the deadline
// may still run when the server resumes: its key is then deleted by an owner-checked
// release sent from a thread of its own as soon as the server answers again (it keeps
// trying for 10 minutes), and the lock draws a new token, so no ghost lock outlives the
// failed call by more than that.
//
// Errors: calls that talk to the server throw IoError subclasses when it cannot be reached
// (TimeoutError, ConnectionLostError, OutcomeUnknownError...), ReplyError subclasses when it
// refuses (PermissionError for an ACL that forbids EVALSHA or the keys), ReadOnlyError on a
// read-only connection. Nothing else throws except where noted.

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "lockscope/connection.h"
#include "lockscope/held_lock.h"
#include "lockscope/lock_observer.h"
#include "lockscope/lock_options.h"
#include "lockscope/watchdog.h"

namespace lockscope {

enum class AcquireStatus {
    Acquired,        // the key was free; it now holds our token with a new fence
    AlreadyHeld,     // it already held our token: the TTL was reset, the fence is the current one
    Busy,            // another token holds it
    FenceRegressed,  // acquired, but the fence is not above one this process saw (see top)
};
const char* toString(AcquireStatus status);

struct Acquisition {
    AcquireStatus status = AcquireStatus::Busy;
    std::optional<std::int64_t> fence;  // set unless Busy
    std::int64_t highestFenceSeen = 0;  // FenceRegressed: what this process had seen before
    explicit operator bool() const { return fence.has_value(); }
};

namespace detail {
class LocalGate;
}

class RedisLock {
  public:
    using Clock = std::chrono::steady_clock;

    // Shares the connection: it lives as long as any lock that uses it, so moving or
    // dropping the caller's handle cannot leave the lock dangling. A fresh 128-bit token is
    // drawn per lock. Throws InvalidArgumentError for a bad name (validateLockName), bad
    // options (validateLockOptions: TTL ≤ 0, prefixes equal or with braces...) or a null
    // connection, before it sends anything. Then, with LockOptions::holder on (the default),
    // it names the connection (CLIENT GETNAME, and SETNAME lockscope:<host>:<pid> when it has
    // no name yet; errors only leave it unnamed), so build it on the thread that uses the
    // connection.
    RedisLock(std::shared_ptr<Connection> connection, std::string_view name,
              LockOptions options = {});
    // Takes the connection over: RedisLock lock(Connection::open(endpoint), "job").
    RedisLock(Connection&& connection, std::string_view name, LockOptions options = {});
    // Stops the watchdog; does not release (hold(), LockGuard, unique_lock do) — except for
    // a live HeldLock's lease: that handle is detached (held_lock.h) and its key released.
    ~RedisLock();
    RedisLock(const RedisLock&) = delete;
    RedisLock& operator=(const RedisLock&) = delete;

    // One attempt. Returns the fencing token when we hold the lock — also when it already
    // held our token (a repeated call, or a retry after a lost reply): then the TTL is reset
    // and the fence is the current one. nullopt when another holder has it. A lost reply
    // (OutcomeUnknownError) is resolved by running the idempotent acquire once more.
    [[nodiscard]] std::optional<std::int64_t> acquire();
    // The same attempt with its whole story (fresh / already ours / busy / fence regressed).
    [[nodiscard]] Acquisition tryAcquire();
    // Retries until the deadline (steady clock; the last attempt is made at the deadline)
    // with delay + jitter between attempts, until
    // `stop` is requested (then nullopt), and through I/O errors (the server restarting, a
    // lost reply: the next idempotent attempt finds our token). Rethrows the last I/O error
    // when the deadline passes and no attempt was answered; other errors (ACL, wrong
    // password) at once.
    // Each command is capped at the time left (see Deadlines above).
    [[nodiscard]] std::optional<std::int64_t> acquire(Clock::time_point deadline,
                                                      RetryOptions retry = {},
                                                      std::stop_token stop = {});

    // Acquires (as above) and starts the watchdog: nullopt when the deadline passed or
    // `options.stop` was requested — also when this lock object is already held through
    // another HeldLock or the standard interface (see Exclusion above). Throws
    // InvalidArgumentError before sending anything when a watchdog from startWatchdog()
    // already renews the lease, or for a watchdog interval not shorter than the TTL. The
    // handle releases on scope exit. For the whole path in one call see holdLock().
    [[nodiscard]] std::optional<HeldLock> hold(Clock::time_point deadline,
                                               HoldOptions options = {});

    // Resets the TTL while we still own the lock, and moves the watchdog's deadline with it.
    // false: the lock is gone or someone else's (nothing is sent when we never acquired).
    bool extend();
    // Deletes the lock only if it still holds our token. Stops the watchdog first, so no
    // renewal can ever follow a release. Afterwards fence() is empty and watchdog() null.
    // true: the key held our token and is deleted. false: it did not (lost, or never held).
    [[nodiscard]] bool release();

    // Acquired, not released, not reported lost, and the lease (moved by extend() and the
    // watchdog) not past on the steady clock. No round trip.
    bool isHeld() const;
    // One round trip: the key holds our token now.
    bool ownedOnServer();

    // Renews every ttl/3 on a background thread with its own connection until release().
    // Throws InvalidArgumentError when the lock is not held, when a watchdog already runs
    // for it (watchdog() returns that one), or for an interval not shorter than the TTL. The
    // watchdog stays valid as long as someone holds the pointer.
    std::shared_ptr<Watchdog> startWatchdog(WatchdogOptions options = {});
    std::shared_ptr<Watchdog> watchdog() const;

    // The standard TimedLockable requirements, so std::unique_lock, std::scoped_lock and
    // std::condition_variable_any work, with the exclusion of a std::timed_mutex (see
    // Exclusion above). lock() waits without a deadline; lock(stop) also until `stop` is
    // requested (then false). try_lock() is one attempt: false when this object is already
    // held, when another holder has the key, or when the server did not answer within the
    // connection's commandTimeout. try_lock_for/until return false by their deadline, also
    // when the server could not be reached in time (an unknown outcome is cleaned up). They
    // throw only for what waiting cannot cure (ACL, wrong password, a read-only connection).
    // unlock() releases, opens the object for the next holder and never throws (a failed
    // release expires with the TTL).
    void lock();
    bool lock(std::stop_token stop);
    bool try_lock();
    template <class Rep, class Period>
    bool try_lock_for(const std::chrono::duration<Rep, Period>& timeout) {
        return tryLockUntil(Clock::now() + std::chrono::ceil<Clock::duration>(timeout));
    }
    template <class C, class D>
    bool try_lock_until(const std::chrono::time_point<C, D>& until) {
        return try_lock_for(until - C::now());
    }
    void unlock() noexcept;

    const std::string& name() const { return name_; }
    const std::string& key() const { return key_; }
    const std::string& fenceKey() const { return fenceKey_; }
    // The holder hash written with the lock (LockOptions::holder); empty when not published.
    const std::string& holderKey() const { return holderKey_; }
    // Ours on the server. A new one is drawn after an acquire whose outcome was still unknown
    // at its deadline (see Deadlines above), so it changes only while the lock is not held.
    const std::string& token() const { return token_; }
    std::chrono::milliseconds ttl() const { return options_.ttl; }
    std::optional<std::int64_t> fence() const;
    // When the successful acquire was sent: the lease cannot have started earlier.
    Clock::time_point acquiredAt() const;
    const std::shared_ptr<Connection>& connection() const { return connection_; }

  private:
    friend class HeldLock;  // releaseHeld()

    Acquisition attemptOnce(Clock::time_point startedAt, Clock::time_point deadline);
    Acquisition acquireUntil(Clock::time_point deadline, RetryOptions retry, std::stop_token stop);
    void abandonUnknownAcquire();
    bool tryLockUntil(Clock::time_point deadline);
    void checkHoldable(const HoldOptions& options, bool gateClosed) const;
    bool releaseHeld();            // the HeldLock's release: also opens the gate
    void detachHandle() noexcept;  // ~RedisLock: a live HeldLock is told and released
    Acquisition runAcquireScript();
    Reply evalAcquireScript(const std::string& ttl);
    bool runReleaseScript();  // true: our key was deleted
    void nameOwnConnection();
    void nameWatchdogConnection(Connection& own) const;
    void recordAcquisition(Acquisition& result, Clock::time_point sentAt,
                           Clock::time_point startedAt);
    void notify(const LockEvent& event) const;

    std::shared_ptr<Connection> connection_;
    std::string name_, key_, fenceKey_, token_, holderKey_;
    LockOptions options_;
    // The connection's name, recorded in the holder hash; asked once, at construction.
    std::string connectionName_;
    mutable std::mutex mutex_;  // guards what follows: onLost may read it from another thread
    std::optional<std::int64_t> fence_;
    Clock::time_point acquiredAt_{};
    Clock::time_point leaseEnd_{};  // by our clock, with a safety margin
    std::shared_ptr<Watchdog> watchdog_;
    // The standard interface's and hold()'s holder; shared so a HeldLock can tell that its
    // lock no longer exists.
    std::shared_ptr<detail::LocalGate> gate_;
    // the standard interface's and hold()'s holder
    std::weak_ptr<HeldLock::State> handle_;  // the live HeldLock, if any
};

// Releases the lock on scope exit. Never throws from its destructor (an error while
// releasing is swallowed: the TTL frees the lock anyway). Prefer hold(), whose handle also
// tells you when the lock was lost.
class LockGuard {
  public:
    explicit LockGuard(RedisLock& lock) : lock_(&lock) {}
    ~LockGuard() noexcept;
    LockGuard(const LockGuard&) = delete;
    LockGuard& operator=(const LockGuard&) = delete;

  private:
    RedisLock* lock_;
};

}  // namespace lockscope
