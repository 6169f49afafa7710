// A HeldLock next to a second hold() and after its RedisLock is gone (issue 33, items 1, 2).

#include <atomic>
#include <optional>
#include <string>
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

// What a function that owns the lock and returns its handle leaves behind.
struct Escaped {
    std::optional<HeldLock> held;
    std::string key;
};

Escaped holdInAFunctionThatOwnsTheLock(const Endpoint& endpoint, std::atomic<int>& lostCalls) {
    RedisLock lock(Connection::open(endpoint), "held:escaped", {.ttl = 5000ms});
    Escaped out;
    out.key = lock.key();
    out.held = lock.hold(Clock::now() + 1s,
                         {.watchdog = {.onLost = [&](const std::string&) { ++lostCalls; }}});
    return out;  // the lock dies here, its handle lives on
}

}  // namespace

// Before: the second hold() found our own token (the acquire is idempotent), failed to start
// a second watchdog and, on its way out, sent DEL for our key: the first holder worked on
// without the lock and was never told.
TEST_F(RedisTest, ASecondHoldLeavesTheFirstHoldsLeaseAndWatchdogAlone) {
    RedisLock lock(connect(), "held:twice", {.ttl = scaled(1000ms)});
    std::atomic<int> lostCalls{0};
    auto first = lock.hold(Clock::now() + 1s,
                           {.watchdog = {.onLost = [&](const std::string&) { ++lostCalls; }}});
    ASSERT_TRUE(first);
    std::optional<HeldLock> second;
    auto start = Clock::now();
    EXPECT_NO_THROW(second = lock.hold(Clock::now() + 200ms));
    EXPECT_FALSE(second) << "one holder per lock object, like a std::timed_mutex";
    EXPECT_GE(Clock::now() - start, 150ms) << "a second hold() waits until its deadline";
    EXPECT_TRUE(lock.ownedOnServer()) << "the refused hold() touched the first one's lease";
    std::this_thread::sleep_for(scaled(2200ms));  // > two TTLs: only a live watchdog keeps it
    EXPECT_EQ(observer().command({"GET", lock.key()}).text(), lock.token());
    EXPECT_FALSE(first->lost());
    EXPECT_EQ(lostCalls.load(), 0);
    EXPECT_TRUE(first->release());
    // Released: the object can be held again.
    auto third = lock.hold(Clock::now() + 1s);
    ASSERT_TRUE(third);
    EXPECT_EQ(third->fence(), 2);
}

// The same trap through the low-level path: acquire() and startWatchdog() by hand, then
// hold(). Refused before anything is sent; the lease and its watchdog stay.
TEST_F(RedisTest, HoldOverAManualWatchdogIsRefusedWithoutTouchingTheLease) {
    RedisLock lock(connect(), "held:manual", {.ttl = scaled(1000ms)});
    ASSERT_TRUE(lock.acquire());
    auto dog = lock.startWatchdog();
    auto sent = lock.connection()->commandsSent();
    EXPECT_THROW((void)lock.hold(Clock::now() + 1s), InvalidArgumentError);
    EXPECT_EQ(lock.connection()->commandsSent(), sent) << "a refused hold() sent something";
    std::this_thread::sleep_for(scaled(2200ms));
    EXPECT_TRUE(lock.ownedOnServer());
    EXPECT_FALSE(dog->lost());
    EXPECT_TRUE(lock.release());
}

// A watchdog interval the lease cannot carry is refused before the acquire, not after it.
TEST_F(RedisTest, HoldWithAnImpossibleIntervalSendsNothing) {
    RedisLock lock(connect(), "held:interval", {.ttl = 300ms});
    EXPECT_THROW((void)lock.hold(Clock::now() + 1s, {.watchdog = {.interval = 300ms}}),
                 InvalidArgumentError);
    EXPECT_EQ(keyCount(), 0) << "the refused hold() set the key or the fence";
}

// Before: the handle kept a pointer to the destroyed lock; release() read freed memory
// (valgrind: invalid read in RedisLock::release()) and crashed, and the key stayed held.
TEST_F(RedisTest, AHandleThatOutlivesItsLockReportsLockDestroyedAndLeavesNoKey) {
    std::atomic<int> lostCalls{0};
    auto escaped = holdInAFunctionThatOwnsTheLock(endpoint(), lostCalls);
    ASSERT_TRUE(escaped.held);
    HeldLock& held = *escaped.held;
    EXPECT_TRUE(held.lost());
    EXPECT_NE(held.lostReason().find("destroyed"), std::string::npos) << held.lostReason();
    EXPECT_TRUE(held.cancellation().stop_requested());
    EXPECT_EQ(lostCalls.load(), 1);
    EXPECT_EQ(held.fence(), 1);
    EXPECT_THROW((void)held.lock(), InvalidArgumentError);
    EXPECT_FALSE(held.release()) << "nothing is left to release";
    EXPECT_TRUE(observer().command({"GET", escaped.key}).isNil())
        << "the destroyed lock left its key held";
    escaped.held.reset();  // the destructor has nothing to do either
    EXPECT_EQ(lostCalls.load(), 1) << "the loss is reported once";
}

// A handle released before its lock died must not reach the dead lock either.
TEST_F(RedisTest, AReleasedHandleThatOutlivesItsLockRefusesToNameIt) {
    std::optional<HeldLock> held;
    {
        RedisLock lock(connect(), "held:released-escape", {.ttl = 5000ms});
        held = lock.hold(Clock::now() + 1s);
        ASSERT_TRUE(held);
        EXPECT_TRUE(held->release());
        EXPECT_EQ(&held->lock(), &lock) << "while the lock lives, the handle names it";
    }
    EXPECT_THROW((void)held->lock(), InvalidArgumentError);
    EXPECT_FALSE(held->release());
    EXPECT_FALSE(held->lost()) << "it was released in time: nothing was lost";
}
