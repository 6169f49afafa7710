// Ownership you can ask about, and acquire that recognises its own token: the traps a C++
// developer fell into with the first API (issue 20, items 2, 4, 5, 6, 12).

#include <atomic>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

#include "lockscope/errors.h"
#include "lockscope/lock_scripts.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"
#include "sanitizer_time.h"

using namespace lockscope;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using lockscope::testing::RedisTest;
using lockscope::testing::scaled;

// Before: the second acquire() answered nullopt for a lock we held (and acquire(deadline)
// waited out its whole deadline). Now it returns the current fence and resets the TTL.
TEST_F(RedisTest, SecondAcquireOfOurOwnLockReturnsTheFenceAndResetsTheTtl) {
    RedisLock lock(connect(), "own:twice", {.ttl = 1000ms});
    ASSERT_EQ(lock.acquire(), 1);
    std::this_thread::sleep_for(300ms);
    Acquisition again = lock.tryAcquire();
    EXPECT_EQ(again.status, AcquireStatus::AlreadyHeld);
    EXPECT_EQ(again.fence, 1);
    EXPECT_GT(observer().command({"PTTL", lock.key()}).integer(), 900) << "TTL not reset";
    auto start = Clock::now();
    EXPECT_EQ(lock.acquire(Clock::now() + 2s), 1);
    EXPECT_LT(Clock::now() - start, 200ms) << "waited for a lock it already held";
    EXPECT_EQ(observer().command({"GET", lock.fenceKey()}).text(), "1") << "no second INCR";
    EXPECT_TRUE(lock.release());
}

// Before: the server was paused, the acquire timed out although it ran once the server
// resumed, and the retry said "not acquired": the lock blocked everyone, its owner too.
TEST_F(RedisTest, AcquireWhoseReplyWasLostIsRecognisedByTheRetry) {
    RedisLock lock(connect({.commandTimeout = 150ms}), "own:paused", {.ttl = 10'000ms});
    // The script is cached, as on any server that served a lock before: the EVALSHA that
    // times out is the one that runs when the server wakes up.
    observer().command({"SCRIPT", "LOAD", scripts::acquireOrRenew().source()});
    server().pause();
    EXPECT_THROW((void)lock.acquire(), IoError);
    server().resume();
    // The script ran when the server woke up: our token is there.
    for (int i = 0; i < 100 && observer().command({"GET", lock.key()}).isNil(); ++i)
        std::this_thread::sleep_for(10ms);
    ASSERT_EQ(observer().command({"GET", lock.key()}).text(), lock.token());
    EXPECT_EQ(lock.acquire(), 1) << "the retry did not recognise our own token";
    EXPECT_TRUE(lock.isHeld());
    EXPECT_TRUE(lock.release());
    EXPECT_TRUE(observer().command({"GET", lock.key()}).isNil());
}

TEST_F(RedisTest, IsHeldAndOwnedOnServerTellTheTruth) {
    // Scaled: under TSan a 300 ms lease could be spent before isHeld() is asked.
    RedisLock lock(connect(), "own:ask", {.ttl = scaled(300ms)});
    EXPECT_FALSE(lock.isHeld());
    EXPECT_FALSE(lock.ownedOnServer());
    ASSERT_TRUE(lock.acquire());
    EXPECT_TRUE(lock.isHeld());
    EXPECT_TRUE(lock.ownedOnServer());
    observer().command({"DEL", lock.key()});  // stolen behind our back
    EXPECT_TRUE(lock.isHeld()) << "isHeld() makes no round trip";
    EXPECT_FALSE(lock.ownedOnServer());
    ASSERT_TRUE(lock.acquire());
    std::this_thread::sleep_for(scaled(320ms));  // the lease runs out on our clock
    EXPECT_FALSE(lock.isHeld());
    ASSERT_TRUE(lock.acquire());
    lock.startWatchdog();
    EXPECT_TRUE(lock.release());
    EXPECT_FALSE(lock.isHeld());
    EXPECT_EQ(lock.fence(), std::nullopt);
    EXPECT_EQ(lock.watchdog(), nullptr);
    EXPECT_FALSE(lock.release()) << "a second release sends nothing and reports false";
}

TEST_F(RedisTest, ExtendMovesTheLeaseThatIsHeldMeasures) {
    RedisLock lock(connect(), "own:extend", {.ttl = 300ms});
    EXPECT_FALSE(lock.extend()) << "never acquired: nothing to extend";
    ASSERT_TRUE(lock.acquire());
    std::this_thread::sleep_for(200ms);
    ASSERT_TRUE(lock.extend());
    std::this_thread::sleep_for(200ms);  // 400 ms after the acquire, 200 ms after the extend
    EXPECT_TRUE(lock.isHeld());
    EXPECT_TRUE(lock.release());
}

// Before: RedisLock kept a Connection&, and pushing a second connection into a vector moved
// the first: the next release() crashed (SIGSEGV). A reference is no longer accepted.
static_assert(!std::is_constructible_v<RedisLock, Connection&, std::string_view>,
              "a lock must not keep a reference to a movable connection");
static_assert(!std::is_move_constructible_v<RedisLock>, "watchdogs and handles refer to it");

TEST_F(RedisTest, ALockKeepsItsConnectionAliveWhateverTheCallerDoesWithTheirs) {
    std::vector<std::shared_ptr<Connection>> connections;
    connections.push_back(std::make_shared<Connection>(connect()));
    RedisLock lock(connections[0], "own:vector");
    ASSERT_TRUE(lock.acquire());
    for (int i = 0; i < 8; ++i) connections.push_back(std::make_shared<Connection>(connect()));
    connections.clear();  // every handle of the caller's is gone
    EXPECT_TRUE(lock.ownedOnServer());
    EXPECT_TRUE(lock.release());
    EXPECT_THROW(RedisLock(std::shared_ptr<Connection>(), "x"), InvalidArgumentError);
}

TEST_F(RedisTest, StandardLockAdaptersWork) {
    auto c = std::make_shared<Connection>(connect());
    RedisLock a(c, "own:std", {.ttl = 5000ms}), b(connect(), "own:std", {.ttl = 5000ms});
    {
        std::unique_lock guard(a);
        EXPECT_TRUE(guard.owns_lock());
        EXPECT_EQ(observer().command({"GET", a.key()}).text(), a.token());
        EXPECT_FALSE(b.try_lock());
        auto start = Clock::now();
        EXPECT_FALSE(b.try_lock_for(150ms));
        EXPECT_GE(Clock::now() - start, 100ms);
        EXPECT_LT(Clock::now() - start, 1s);
        EXPECT_FALSE(b.try_lock_until(std::chrono::system_clock::now() + 100ms));
        std::unique_lock<RedisLock> timed(b, 50ms);
        EXPECT_FALSE(timed.owns_lock());
    }
    EXPECT_TRUE(observer().command({"GET", a.key()}).isNil()) << "unique_lock did not unlock";
    RedisLock other(c, "own:std2");
    {
        std::scoped_lock both(a, other);
        EXPECT_TRUE(a.isHeld());
        EXPECT_TRUE(other.isHeld());
    }
    EXPECT_FALSE(a.isHeld());
    EXPECT_EQ(keyCount(), 2) << "only the two fence counters are left";
}

TEST_F(RedisTest, BlockingAcquireStopsWhenCancelled) {
    RedisLock holder(connect(), "own:cancel"), waiter(connect(), "own:cancel");
    ASSERT_TRUE(holder.acquire());
    std::stop_source cancel;
    std::jthread canceller([&] {
        std::this_thread::sleep_for(150ms);
        cancel.request_stop();
    });
    auto start = Clock::now();
    EXPECT_EQ(waiter.acquire(Clock::now() + 10s, {}, cancel.get_token()), std::nullopt);
    EXPECT_LT(Clock::now() - start, 1s) << "the stop token was ignored";
    EXPECT_GE(Clock::now() - start, 140ms);
}

// Before: the first I/O error ended acquire(deadline). Now it retries until the deadline, so
// a server that restarts during the wait is waited for.
TEST_F(RedisTest, BlockingAcquireRetriesThroughAServerRestart) {
    RedisLock lock(connect({.connectTimeout = 100ms, .commandTimeout = 100ms}), "own:restart");
    server().stop();
    std::jthread restarter([&] {
        std::this_thread::sleep_for(300ms);
        server().start();
    });
    EXPECT_EQ(lock.acquire(Clock::now() + 5s, {10ms, 10ms}), 1);
    restarter.join();
    EXPECT_EQ(observer().command({"GET", lock.key()}).text(), lock.token());
}

TEST_F(RedisTest, BlockingAcquireRethrowsTheLastIoErrorAtTheDeadline) {
    RedisLock lock(connect({.connectTimeout = 50ms, .commandTimeout = 50ms}), "own:down");
    server().stop();
    auto start = Clock::now();
    EXPECT_THROW((void)lock.acquire(Clock::now() + 300ms, {10ms, 10ms}), IoError);
    EXPECT_LT(Clock::now() - start, 2s);
}
