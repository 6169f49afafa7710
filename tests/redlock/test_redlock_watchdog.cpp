// The foundation's watchdog contract on a Redlock: renew while a majority answers, report the
// lock lost (callback, lost(), cancellation) when a majority can no longer be reached, and
// never renew after release.

#include <atomic>
#include <thread>

#include "five_redis_servers.h"
#include "lockscope/redlock/redlock.h"
#include "sanitizer_time.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::FiveRedisServers;
using lockscope::testing::scaled;

using RedlockWatchdogTest = FiveRedisServers;

TEST_F(RedlockWatchdogTest, KeepsTheLockPastSeveralTtls) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    // Scaled: under ThreadSanitizer on a loaded machine a renewal could outlast 300 ms.
    Redlock lock(nodes, "long", {.ttl = scaled(300ms)});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    auto dog = lock.startWatchdog();
    std::this_thread::sleep_for(scaled(1'000ms));
    EXPECT_FALSE(dog->lost()) << dog->lostReason();
    EXPECT_GE(dog->renewals(), 5);
    EXPECT_TRUE(lock.isValid());
    EXPECT_EQ(nodesHolding(lock.key(), lock.token()), 5);
    EXPECT_EQ(dog->lastRenewal().operation, RedlockOperation::Extend);
    EXPECT_TRUE(dog->lastRenewal().succeeded);
    lock.release();
    EXPECT_EQ(totalKeys(), 0);
}

TEST_F(RedlockWatchdogTest, TwoNodesDownDoNotStopIt) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "degraded", {.ttl = scaled(300ms)});  // scaled as above
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    auto dog = lock.startWatchdog();
    server(1).stop();
    server(2).stop();
    std::this_thread::sleep_for(scaled(700ms));
    EXPECT_FALSE(dog->lost()) << dog->lostReason();
    EXPECT_TRUE(lock.isValid());
    EXPECT_EQ(dog->lastRenewal().granted(), 3);
}

TEST_F(RedlockWatchdogTest, ReportsTheLockLostWhenAMajorityOfKeysIsTaken) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "stolen", {.ttl = 600ms});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    std::atomic<int> calls{0};
    std::string reason;
    auto dog = lock.startWatchdog({.onLost = [&](const std::string& r) {
        reason = r;
        calls.fetch_add(1);
    }});
    // Someone else's token on three nodes (say a Redlock that got in through a restart).
    for (int i : {0, 1, 2}) observer(i).command({"SET", lock.key(), "intruder", "PX", "10000"});
    auto until = std::chrono::steady_clock::now() + 1s;
    // Wait for the callback itself: lost() turns true just before it runs.
    while (calls.load() == 0 && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(5ms);
    ASSERT_TRUE(dog->lost());
    EXPECT_EQ(calls.load(), 1);
    EXPECT_TRUE(dog->cancellation().stop_requested());
    EXPECT_EQ(dog->lostReason(), reason);
    EXPECT_NE(reason.find("renewal failed on a majority: only 2 of 5 nodes renewed"),
              std::string::npos)
        << reason;
    EXPECT_FALSE(lock.isValid());
}

TEST_F(RedlockWatchdogTest, ReportsTheLockLostWhenNodesStayDownUntilTheValidityEnds) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    // The TTL and its default node timeout (TTL / 10), scaled: under ThreadSanitizer a 40 ms
    // node timeout let the two live nodes time out too ("0 of 5 nodes renewed").
    Redlock lock(nodes, "outage", {.ttl = scaled(400ms), .nodeTimeout = scaled(40ms)});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    auto dog = lock.startWatchdog();
    for (int i : {0, 1, 2}) server(i).stop();
    auto until = std::chrono::steady_clock::now() + scaled(1s);
    while (!dog->lost() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(5ms);
    ASSERT_TRUE(dog->lost());
    EXPECT_NE(dog->lostReason().find("renewals kept failing until the validity ran out"),
              std::string::npos)
        << dog->lostReason();
    EXPECT_NE(dog->lostReason().find("2 of 5 nodes renewed"), std::string::npos)
        << dog->lostReason();
    EXPECT_FALSE(lock.isValid());
}

TEST_F(RedlockWatchdogTest, NoRenewalAfterRelease) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    // Scaled: under ThreadSanitizer a 150 ms TTL can run out before the watchdog renews it.
    Redlock lock(nodes, "done", {.ttl = scaled(150ms)});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    auto dog = lock.startWatchdog({.interval = scaled(10ms)});
    std::this_thread::sleep_for(scaled(60ms));
    RedlockAttempt released = lock.release();
    EXPECT_EQ(released.granted(), 5);
    int renewals = dog->renewals();
    std::this_thread::sleep_for(scaled(100ms));
    EXPECT_EQ(dog->renewals(), renewals);
    EXPECT_EQ(totalKeys(),
              0);  // no late PEXPIRE brought anything back (it could not: owner-checked)
}
