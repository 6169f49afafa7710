// Compile-time probes of the lock library's public headers (issue 33, item 7): each PROBE_*
// case must fail to compile with -Werror, naming the discarded result; PROBE_KEPT, which
// uses every result, must compile. compile_fail.cmake builds one case per ctest.
#include <lockscope/hold_lock.h>
#include <lockscope/redis_lock.h>
#include <lockscope/redlock/redlock.h>

#include <chrono>

using Clock = std::chrono::steady_clock;

void probe([[maybe_unused]] lockscope::RedisLock& lock, [[maybe_unused]] lockscope::HeldLock& held,
           [[maybe_unused]] lockscope::Redlock& redlock,
           [[maybe_unused]] const lockscope::Endpoint& endpoint) {
#if defined(PROBE_ACQUIRE)
    lock.acquire();  // a discarded acquire: the caller does not know whether it holds
#elif defined(PROBE_TIMED_ACQUIRE)
    lock.acquire(Clock::now());
#elif defined(PROBE_TRY_ACQUIRE)
    lock.tryAcquire();
#elif defined(PROBE_HOLD)
    lock.hold(Clock::now());  // the handle would release at once
#elif defined(PROBE_RELEASE)
    lock.release();  // false says the lock had been lost
#elif defined(PROBE_HELD_RELEASE)
    held.release();
#elif defined(PROBE_REDLOCK_TRY_ACQUIRE)
    redlock.tryAcquire();
#elif defined(PROBE_HOLD_LOCK)
    lockscope::holdLock(endpoint, "job", Clock::now());
#elif defined(PROBE_KEPT)
    bool any = lock.acquire().has_value() || lock.acquire(Clock::now()).has_value() ||
               lock.tryAcquire().fence.has_value() || lock.hold(Clock::now()).has_value() ||
               lock.release() || held.release() || redlock.tryAcquire().succeeded ||
               lockscope::holdLock(endpoint, "job", Clock::now()).has_value();
    (void)any;
    // Designated initialisers that name some members only: no -Wmissing-field-initializers.
    lockscope::LockOptions options{.ttl = std::chrono::seconds(5)};
    lockscope::HoldOptions hold{.retry = {.delay = std::chrono::milliseconds(10)}};
    lockscope::RedlockOptions redlockOptions{.ttl = std::chrono::seconds(5)};
    (void)options, (void)hold, (void)redlockOptions;
#else
#error "no PROBE_* case defined"
#endif
}
