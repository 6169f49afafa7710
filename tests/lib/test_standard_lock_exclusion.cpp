// The standard-lock interface excludes like a std::timed_mutex (issue 33, item 3).

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using lockscope::testing::RedisTest;

// Before: try_lock() was the idempotent acquire, so the second thread found our own token
// and both were inside the critical section at once.
TEST_F(RedisTest, TwoThreadsThroughTryLockAreNeverInsideTogether) {
    RedisLock lock(connect(), "std:two", {.ttl = 5000ms});
    std::mutex serial;  // the connection's one-thread rule: calls never overlap
    std::atomic<int> inside{0}, overlaps{0}, entries{0};
    auto worker = [&] {
        for (int i = 0; i < 40; ++i) {
            bool got = false;
            {
                std::lock_guard guard(serial);
                got = lock.try_lock();
            }
            if (!got) {
                std::this_thread::sleep_for(1ms);
                continue;
            }
            ++entries;
            if (++inside > 1) ++overlaps;
            std::this_thread::sleep_for(2ms);
            --inside;
            std::lock_guard guard(serial);
            lock.unlock();
        }
    };
    std::jthread a(worker), b(worker);
    a.join();
    b.join();
    EXPECT_GT(entries.load(), 0);
    EXPECT_EQ(overlaps.load(), 0) << "both threads held the lock at once";
}

TEST_F(RedisTest, TryLockOnAHeldObjectIsFalseAtOnceAndSendsNothing) {
    RedisLock lock(connect(), "std:held", {.ttl = 5000ms});
    std::unique_lock guard(lock);
    auto sent = lock.connection()->commandsSent();
    auto start = Clock::now();
    EXPECT_FALSE(lock.try_lock());
    EXPECT_FALSE(lock.try_lock_for(100ms));
    EXPECT_GE(Clock::now() - start, 90ms) << "try_lock_for waits its time out";
    EXPECT_EQ(lock.connection()->commandsSent(), sent);
    EXPECT_TRUE(guard.owns_lock());
    EXPECT_TRUE(lock.ownedOnServer());
}

// Before: hold() acquired again (idempotent), and its handle's destructor released the
// lock that the unique_lock still said it owned.
TEST_F(RedisTest, HoldOnAnObjectHeldByUniqueLockLeavesTheUniqueLockOwning) {
    RedisLock lock(connect(), "std:unique-then-hold", {.ttl = 5000ms});
    std::unique_lock guard(lock);
    {
        auto held = lock.hold(Clock::now() + 100ms);
        EXPECT_FALSE(held) << "the object is already held through std::unique_lock";
    }
    EXPECT_TRUE(guard.owns_lock());
    EXPECT_TRUE(lock.ownedOnServer()) << "the lock the unique_lock owns was released";
    guard.unlock();
    EXPECT_FALSE(lock.ownedOnServer());
    auto held = lock.hold(Clock::now() + 1s);
    EXPECT_TRUE(held) << "unlocked: hold() takes it";
    EXPECT_FALSE(lock.try_lock()) << "and then the standard interface waits for the handle";
}

TEST_F(RedisTest, TryLockForWaitsForTheLocalHolderToUnlock) {
    RedisLock lock(connect(), "std:handover", {.ttl = 5000ms});
    lock.lock();
    std::jthread owner([&] {
        std::this_thread::sleep_for(150ms);
        lock.unlock();  // from another thread, as a std::timed_mutex's owner would
    });
    auto start = Clock::now();
    // The connection is idle while the waiter waits locally, so no call overlaps.
    EXPECT_TRUE(lock.try_lock_for(3s));
    EXPECT_GE(Clock::now() - start, 100ms);
    owner.join();
    EXPECT_TRUE(lock.ownedOnServer());
    lock.unlock();
}
