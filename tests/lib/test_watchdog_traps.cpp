// The watchdog traps of the first API (issue 20, items 7–10): each of these crashed, dangled
// or reported a misleading loss before.

#include <atomic>
#include <thread>

#include "lockscope/errors.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"
#include "sanitizer_time.h"

using namespace lockscope;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using lockscope::testing::RedisTest;
using lockscope::testing::scaled;

namespace {

template <typename Condition>
bool waitFor(Condition condition, std::chrono::milliseconds limit = 2s) {
    auto until = Clock::now() + limit;
    while (!condition() && Clock::now() < until) std::this_thread::sleep_for(2ms);
    return condition();
}

}  // namespace

// Before: release() inside onLost joined the watchdog's own thread from a noexcept stop():
// "Resource deadlock avoided", std::terminate.
TEST_F(RedisTest, ReleaseInsideOnLostIsSafe) {
    RedisLock lock(connect(), "trap:release", {.ttl = 300ms});
    ASSERT_TRUE(lock.acquire());
    std::atomic<bool> called{false}, releasedInside{true};
    lock.startWatchdog({.onLost = [&](const std::string&) {
        releasedInside = lock.release();
        called = true;
    }});
    observer().command({"DEL", lock.key()});
    ASSERT_TRUE(waitFor([&] { return called.load(); }));
    EXPECT_FALSE(releasedInside.load()) << "a lost lock is not reported as released";
    EXPECT_FALSE(lock.isHeld());
    EXPECT_EQ(lock.watchdog(), nullptr);
    EXPECT_EQ(lock.fence(), std::nullopt);
}

// The lock itself may even be destroyed inside onLost.
TEST_F(RedisTest, DestroyingTheLockInsideOnLostIsSafe) {
    auto lock = std::make_unique<RedisLock>(connect(), "trap:destroy", LockOptions{.ttl = 300ms});
    ASSERT_TRUE(lock->acquire());
    std::atomic<bool> done{false};
    std::string key = lock->key();
    lock->startWatchdog({.onLost = [&](const std::string&) {
        lock.reset();
        done = true;
    }});
    observer().command({"DEL", key});
    ASSERT_TRUE(waitFor([&] { return done.load(); }));
    std::this_thread::sleep_for(50ms);  // the detached thread ends; ASan would see a misuse
}

// Before: a second startWatchdog() destroyed the first watchdog while the caller still held
// a reference to it (use after free). Now watchdogs are shared and a second one is refused.
TEST_F(RedisTest, SecondStartWatchdogIsRefusedAndTheFirstStaysValid) {
    // Scaled with the lease: under ThreadSanitizer the first renewal (at ttl / 3) must still
    // fall inside the wait, and the renewals must keep up with the lease.
    RedisLock lock(connect(), "trap:twice", {.ttl = scaled(300ms)});
    ASSERT_TRUE(lock.acquire());
    auto first = lock.startWatchdog();
    EXPECT_THROW(lock.startWatchdog(), InvalidArgumentError);
    EXPECT_EQ(lock.watchdog(), first);
    std::this_thread::sleep_for(scaled(250ms));
    EXPECT_GE(first->renewals(), 1);
    EXPECT_FALSE(first->lost());
    EXPECT_TRUE(lock.release());
    EXPECT_FALSE(first->lost()) << "still readable after release";
    ASSERT_TRUE(lock.acquire());
    auto second = lock.startWatchdog();  // a new lease may have a new watchdog
    EXPECT_NE(second, first);
    EXPECT_TRUE(lock.release());
}

// Before: startWatchdog() before acquire() was accepted and later reported a misleading loss.
TEST_F(RedisTest, StartWatchdogRefusesALockThatIsNotHeld) {
    RedisLock lock(connect(), "trap:early", {.ttl = 300ms});
    EXPECT_THROW(lock.startWatchdog(), InvalidArgumentError);
    ASSERT_TRUE(lock.acquire());
    ASSERT_TRUE(lock.release());
    EXPECT_THROW(lock.startWatchdog(), InvalidArgumentError);
}

// Before: an interval longer than the TTL was accepted and no renewal was ever sent.
TEST_F(RedisTest, WatchdogIntervalLongerThanTheLeaseIsRefused) {
    RedisLock lock(connect(), "trap:interval", {.ttl = 300ms});
    ASSERT_TRUE(lock.acquire());
    EXPECT_THROW(lock.startWatchdog({.interval = 400ms}), InvalidArgumentError);
    EXPECT_THROW(lock.startWatchdog({.interval = 300ms}), InvalidArgumentError);
    auto dog = lock.startWatchdog({.interval = 200ms});
    EXPECT_TRUE(lock.release());
}

// Before: a manual extend() did not move the watchdog's deadline, so renewals that failed
// afterwards were given up against the old lease.
TEST_F(RedisTest, ManualExtendMovesTheWatchdogDeadline) {
    RedisLock lock(connect(), "trap:extend", {.ttl = 600ms});
    ASSERT_TRUE(lock.acquire());
    auto dog = lock.startWatchdog({.interval = 500ms});
    auto before = dog->deadline();
    std::this_thread::sleep_for(100ms);
    ASSERT_TRUE(lock.extend());
    EXPECT_GE(dog->deadline() - before, 90ms);
    EXPECT_TRUE(lock.release());
}
