// A repeated acquire on a Redlock we hold, ownership you can ask about, and the watchdog
// traps (issue 20, items 1, 4, 7, 8, 10 on Redlock).

#include <atomic>
#include <thread>

#include "five_redis_servers.h"
#include "lockscope/errors.h"
#include "lockscope/redlock/redlock.h"
#include "sanitizer_time.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::FiveRedisServers;
using lockscope::testing::scaled;

using RedlockReacquire = FiveRedisServers;

// Before: a second tryAcquire() found our own keys (SET NX said nil on every node), counted
// that as a failed attempt and released everywhere: our token was on all nodes before the
// call and on none after, and isValid() turned false.
TEST_F(RedlockReacquire, SecondTryAcquireRenewsInsteadOfDeletingOurKeys) {
    Redlock lock(nodeSet(), "payment", {.ttl = 2'000ms});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    ASSERT_EQ(nodesHolding(lock.key(), lock.token()), 5);
    std::this_thread::sleep_for(300ms);
    auto before = lock.validUntil();
    RedlockAttempt again = lock.tryAcquire();
    EXPECT_TRUE(again.succeeded) << again.details();
    EXPECT_EQ(again.granted(), 5);
    EXPECT_EQ(again.nodes[0].reason, "our token was already there; PEXPIRE reset the TTL");
    EXPECT_EQ(nodesHolding(lock.key(), lock.token()), 5) << "our keys were deleted";
    EXPECT_TRUE(lock.isValid());
    EXPECT_GT(lock.validUntil(), before + 250ms) << "the re-acquire did not renew";
    EXPECT_GT(observer(0).command({"PTTL", lock.key()}).integer(), 1'900);
    lock.release();
    EXPECT_EQ(totalKeys(), 0);
}

// When the re-acquire cannot reach a majority, the lock we hold stays as it was.
TEST_F(RedlockReacquire, AFailedReacquireKeepsTheLockWeHold) {
    Redlock lock(nodeSet(), "payment", {.ttl = 5'000ms});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    server(0).pause();
    server(1).pause();
    server(2).pause();
    RedlockAttempt again = lock.tryAcquire();
    server(0).resume();
    server(1).resume();
    server(2).resume();
    EXPECT_FALSE(again.succeeded);
    EXPECT_NE(again.failure.find("nothing was released"), std::string::npos) << again.failure;
    EXPECT_TRUE(lock.isValid());
    EXPECT_EQ(nodesHolding(lock.key(), lock.token()), 5);
    RedlockAttempt blocking = lock.acquire(std::chrono::steady_clock::now() + 1s);
    EXPECT_TRUE(blocking.succeeded) << blocking.details();
    lock.release();
}

TEST_F(RedlockReacquire, OwnedOnServerCountsAMajority) {
    Redlock lock(nodeSet(), "asked", {.ttl = 5'000ms});
    EXPECT_FALSE(lock.ownedOnServer());
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    EXPECT_TRUE(lock.ownedOnServer());
    observer(0).command({"DEL", lock.key()});
    observer(1).command({"DEL", lock.key()});
    EXPECT_TRUE(lock.ownedOnServer()) << "3 of 5 is still a majority";
    observer(2).command({"DEL", lock.key()});
    EXPECT_FALSE(lock.ownedOnServer());
    EXPECT_TRUE(lock.isValid()) << "isValid() is our clock only, no round trip";
    lock.release();
    EXPECT_EQ(lock.watchdog(), nullptr);
}

TEST_F(RedlockReacquire, ReleaseInsideOnLostIsSafe) {
    // The TTL and its default node timeout (TTL / 10), scaled: under ThreadSanitizer a 30 ms
    // node timeout let too few nodes answer the acquire.
    Redlock lock(nodeSet(), "lost", {.ttl = scaled(300ms), .nodeTimeout = scaled(30ms)});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    std::atomic<bool> called{false};
    lock.startWatchdog({.onLost = [&](const std::string&) {
        lock.release();
        called = true;
    }});
    for (int i = 0; i < kNodes; ++i) observer(i).command({"SET", lock.key(), "thief"});
    auto until = std::chrono::steady_clock::now() + scaled(2s);
    while (!called && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(2ms);
    ASSERT_TRUE(called.load());
    EXPECT_FALSE(lock.isValid());
    EXPECT_EQ(lock.watchdog(), nullptr);
    EXPECT_EQ(nodesHolding(lock.key(), "thief"), 5) << "never touches another's key";
}

TEST_F(RedlockReacquire, SecondStartWatchdogIsRefusedAndTheFirstStaysValid) {
    Redlock lock(nodeSet(), "twice", {.ttl = 300ms});
    EXPECT_THROW(lock.startWatchdog(), InvalidArgumentError);  // not held
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    EXPECT_THROW(lock.startWatchdog({.interval = 400ms}), InvalidArgumentError);
    auto first = lock.startWatchdog();
    EXPECT_THROW(lock.startWatchdog(), InvalidArgumentError);
    EXPECT_EQ(lock.watchdog(), first);
    (void)lock.tryAcquire();  // a repeated acquire keeps the running watchdog
    EXPECT_EQ(lock.watchdog(), first);
    std::this_thread::sleep_for(250ms);
    EXPECT_GE(first->renewals(), 1);
    lock.release();
    EXPECT_FALSE(first->lost()) << "still readable after release";
}

TEST_F(RedlockReacquire, ManualExtendMovesTheWatchdogsValidity) {
    Redlock lock(nodeSet(), "moved", {.ttl = 1'000ms});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    auto dog = lock.startWatchdog({.interval = 800ms});
    auto before = dog->validUntil();
    std::this_thread::sleep_for(100ms);
    ASSERT_TRUE(lock.extend().succeeded);
    EXPECT_GE(dog->validUntil() - before, 90ms);
    lock.release();
}
