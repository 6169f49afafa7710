#include <atomic>
#include <mutex>
#include <set>
#include <thread>

#include "lockscope/errors.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;

// The guide's "Verify the behavior", step for step, with a 200 ms TTL.
TEST_F(RedisTest, GuideVerifyTheBehavior) {
    auto ca = std::make_shared<Connection>(connect()), cb = std::make_shared<Connection>(connect());
    RedisLock a(ca, "report:daily", {.ttl = 200ms});
    RedisLock b(cb, "report:daily", {.ttl = 200ms});
    EXPECT_EQ(a.key(), "lock:{report:daily}");
    EXPECT_EQ(a.fenceKey(), "fence:{report:daily}");

    EXPECT_EQ(a.acquire(), 1);             // True 1
    EXPECT_EQ(b.acquire(), std::nullopt);  // False
    std::this_thread::sleep_for(300ms);    // A "pauses" past its TTL
    EXPECT_EQ(b.acquire(), 2);             // True 2
    EXPECT_FALSE(a.extend());              // False
    EXPECT_FALSE(a.release());             // False: A cannot touch B's lock
    EXPECT_EQ(observer().command({"GET", b.key()}).text(), b.token());  // True
    EXPECT_GT(observer().command({"PTTL", b.key()}).integer(), 0);
}

TEST_F(RedisTest, TokensAre128BitHexAndUnique) {
    auto c = std::make_shared<Connection>(connect());
    std::set<std::string> tokens;
    for (int i = 0; i < 1000; ++i) {
        RedisLock lock(c, "t");
        ASSERT_EQ(lock.token().size(), 32u);
        ASSERT_EQ(lock.token().find_first_not_of("0123456789abcdef"), std::string::npos);
        tokens.insert(lock.token());
    }
    EXPECT_EQ(tokens.size(), 1000u);
}

TEST_F(RedisTest, SixteenThreadsNeverHoldTogetherAndFencesStrictlyIncrease) {
    constexpr int kThreads = 16, kAttempts = 500;
    std::atomic<int> holders{0}, maxHolders{0}, acquired{0};
    std::mutex fencesMutex;
    std::vector<std::int64_t> fences;  // in the order the critical sections ran
    std::vector<std::jthread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            auto c = std::make_shared<Connection>(connect());
            for (int i = 0; i < kAttempts; ++i) {
                RedisLock lock(c, "contended", {.ttl = 5000ms});
                auto fence = lock.acquire();
                if (!fence) continue;
                int now = holders.fetch_add(1) + 1;
                int seen = maxHolders.load();
                while (now > seen && !maxHolders.compare_exchange_weak(seen, now)) {
                }
                {
                    std::lock_guard g(fencesMutex);
                    fences.push_back(*fence);
                }
                acquired.fetch_add(1);
                holders.fetch_sub(1);
                EXPECT_TRUE(lock.release());
            }
        });
    }
    threads.clear();
    EXPECT_EQ(maxHolders.load(), 1);
    EXPECT_GT(acquired.load(), kThreads);  // contention, yet progress
    for (std::size_t i = 1; i < fences.size(); ++i)
        ASSERT_LT(fences[i - 1], fences[i]) << "at " << i;
    EXPECT_EQ(observer().command({"GET", "fence:{contended}"}).text(),
              std::to_string(acquired.load()));
}

TEST_F(RedisTest, ExtendAndReleaseWorkAfterScriptFlush) {
    auto c = std::make_shared<Connection>(connect());
    RedisLock lock(c, "flushy", {.ttl = 10'000ms});
    ASSERT_TRUE(lock.acquire());
    observer().command({"SCRIPT", "FLUSH"});
    EXPECT_TRUE(lock.extend());
    observer().command({"SCRIPT", "FLUSH"});
    EXPECT_TRUE(lock.release());
    EXPECT_TRUE(observer().command({"GET", lock.key()}).isNil());
}

class PersistentServer : public RedisTest {
  protected:
    LocalRedisServerOptions serverOptions() const override { return {.persistence = true}; }
};

TEST_F(PersistentServer, ExtendAndReleaseWorkAfterAServerRestart) {
    auto c = std::make_shared<Connection>(connect());
    RedisLock lock(c, "restarty", {.ttl = 20'000ms});
    ASSERT_EQ(lock.acquire(), 1);
    server().restart();  // the script cache is empty and our socket is dead
    EXPECT_TRUE(lock.extend());
    EXPECT_GT(observer().command({"PTTL", lock.key()}).integer(), 15'000);
    server().restart();
    EXPECT_TRUE(lock.release());
    EXPECT_TRUE(observer().command({"GET", lock.key()}).isNil());
    EXPECT_EQ(observer().command({"GET", lock.fenceKey()}).text(), "1");
}

TEST_F(RedisTest, BlockingAcquireWaitsForTheHolderAndGivesUpAtTheDeadline) {
    auto ca = std::make_shared<Connection>(connect()), cb = std::make_shared<Connection>(connect());
    RedisLock a(ca, "queue", {.ttl = 300ms});
    RedisLock b(cb, "queue", {.ttl = 300ms});
    ASSERT_TRUE(a.acquire());
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(b.acquire(start + 100ms, {10ms, 10ms}), std::nullopt);
    EXPECT_LT(std::chrono::steady_clock::now() - start, 200ms);
    EXPECT_EQ(b.acquire(std::chrono::steady_clock::now() + 2s, {10ms, 10ms}), 2);  // after A's TTL
}

TEST_F(RedisTest, GuardReleasesOnScopeExitAndSwallowsErrors) {
    auto c = std::make_shared<Connection>(connect());
    {
        RedisLock lock(c, "guarded");
        ASSERT_TRUE(lock.acquire());
        LockGuard guard(lock);
        EXPECT_FALSE(observer().command({"GET", "lock:{guarded}"}).isNil());
    }
    EXPECT_TRUE(observer().command({"GET", "lock:{guarded}"}).isNil());
    {
        RedisLock lock(connect({.commandTimeout = 100ms}), "guarded");
        ASSERT_TRUE(lock.acquire());
        server().stop();
        EXPECT_NO_THROW({ LockGuard guard(lock); });  // release fails, the guard does not throw
    }
}

TEST_F(RedisTest, CustomPrefixes) {
    auto c = std::make_shared<Connection>(connect());
    RedisLock lock(c, "x", {.ttl = 1000ms, .lockPrefix = "app:lock:", .fencePrefix = "app:fence:"});
    ASSERT_EQ(lock.acquire(), 1);
    EXPECT_EQ(observer().command({"GET", "app:lock:{x}"}).text(), lock.token());
    EXPECT_EQ(observer().command({"GET", "app:fence:{x}"}).text(), "1");
}

TEST_F(RedisTest, BadLockNamesAreRejectedBeforeAnythingIsSent) {
    auto c = std::make_shared<Connection>(connect());
    int sent = 0;
    c->setObserver([&](const CommandEvent&) { ++sent; });
    for (const std::string& name :
         {std::string(), std::string("a\0b", 3), std::string("tab\there"), std::string("\x01\x02"),
          std::string("a{b}"), std::string(513, 'n')}) {
        try {
            RedisLock lock(c, name);
            FAIL() << "accepted lock name of " << name.size() << " bytes";
        } catch (const InvalidArgumentError& e) {
            EXPECT_TRUE(std::string(e.what()).starts_with("lock name")) << e.what();
        }
    }
    EXPECT_THROW(RedisLock(c, "ok", {.ttl = 0ms}), InvalidArgumentError);
    EXPECT_EQ(sent, 0);
    EXPECT_EQ(keyCount(), 0);
}

TEST_F(RedisTest, AcquireFailsWithAClearErrorWhenTheServerIsGone) {
    RedisLock lock(connect({.connectTimeout = 200ms, .commandTimeout = 200ms}), "gone");
    server().stop();
    EXPECT_THROW((void)lock.acquire(), IoError);
}
