#pragma once
// The guide's single-instance lock: SET lock:{name} <token> NX PX ttl with a fencing
// counter fence:{name}, owner-checked extend and release, an optional watchdog.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>

#include "lockscope/connection.h"
#include "lockscope/watchdog.h"

namespace lockscope {

struct LockOptions {
    std::chrono::milliseconds ttl{30'000};
    std::string lockPrefix = "lock:";
    std::string fencePrefix = "fence:";
};

// How a blocking acquire waits between attempts: delay plus a random share of jitter, so
// contending clients do not retry in lockstep.
struct RetryOptions {
    std::chrono::milliseconds delay{50};
    std::chrono::milliseconds jitter{50};
};

// Throws InvalidArgumentError for a name that is empty, longer than 512 bytes, or holds
// control bytes or braces (braces would break the {hash tag} that keeps lock and fence
// in one Cluster slot).
void validateLockName(std::string_view name);

class RedisLock {
  public:
    using Clock = std::chrono::steady_clock;

    // The connection must outlive the lock. A fresh 128-bit token is drawn per lock.
    RedisLock(Connection& connection, std::string_view name, LockOptions options = {});
    ~RedisLock();  // stops the watchdog; does not release (use LockGuard for that)
    RedisLock(const RedisLock&) = delete;
    RedisLock& operator=(const RedisLock&) = delete;

    // One attempt. Returns the fencing token when we got the lock, nullopt when another
    // holder has it. Throws on connection and server errors.
    std::optional<std::int64_t> acquire();
    // Retries until the deadline (steady clock) with delay + jitter between attempts.
    std::optional<std::int64_t> acquire(Clock::time_point deadline, RetryOptions retry = {});

    // Resets the TTL while we still own the lock. false: the lock is gone or someone else's.
    bool extend();
    // Deletes the lock only if it still holds our token. Stops the watchdog first, so no
    // renewal can ever follow a release.
    bool release();

    // Renews every ttl/3 on a background thread with its own connection until release().
    // The returned watchdog tells the work loop when the lock is lost.
    Watchdog& startWatchdog(WatchdogOptions options = {});
    Watchdog* watchdog() { return watchdog_.get(); }

    const std::string& name() const { return name_; }
    const std::string& key() const { return key_; }
    const std::string& fenceKey() const { return fenceKey_; }
    const std::string& token() const { return token_; }
    std::chrono::milliseconds ttl() const { return options_.ttl; }
    std::optional<std::int64_t> fence() const { return fence_; }
    // When the successful acquire was sent: the lease cannot have started earlier.
    Clock::time_point acquiredAt() const { return acquiredAt_; }

  private:
    void stopWatchdog() noexcept;

    Connection& connection_;
    std::string name_, key_, fenceKey_, token_;
    LockOptions options_;
    std::optional<std::int64_t> fence_;
    Clock::time_point acquiredAt_{};
    std::unique_ptr<Watchdog> watchdog_;
};

// Releases the lock on scope exit. Never throws from its destructor (an error while
// releasing is swallowed: the TTL frees the lock anyway).
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
