// extend counts only with a majority within the validity; release and extend are
// owner-checked; scripts survive SCRIPT FLUSH (EVALSHA falls back to EVAL).

#include <thread>

#include "five_redis_servers.h"
#include "lockscope/redlock/redlock.h"
#include "sanitizer_time.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::FiveRedisServers;
using lockscope::testing::scaled;

using RedlockExtend = FiveRedisServers;

TEST_F(RedlockExtend, ExtendResetsTheTtlOnEveryNodeAndMovesTheValidity) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "long-job", {.ttl = 1'000ms});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    auto before = lock.validUntil();
    std::this_thread::sleep_for(300ms);
    RedlockAttempt extended = lock.extend();
    ASSERT_TRUE(extended.succeeded) << extended.details();
    EXPECT_EQ(extended.granted(), 5);
    EXPECT_GE(lock.validUntil() - before, 290ms);
    for (int i = 0; i < kNodes; ++i)
        EXPECT_GT(observer(i).command({"PTTL", lock.key()}).integer(), 900);
}

TEST_F(RedlockExtend, ExtendWithoutAMajorityDoesNotCount) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "long-job", {.ttl = 5'000ms});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    auto before = lock.validUntil();
    // Three keys vanish behind our back (expired early, deleted by an operator...).
    for (int i : {0, 1, 2}) observer(i).command({"DEL", lock.key()});
    RedlockAttempt extended = lock.extend();
    EXPECT_FALSE(extended.succeeded);
    EXPECT_EQ(extended.granted(), 2);
    EXPECT_EQ(extended.refused(), 3);
    EXPECT_EQ(extended.failure,
              "only 2 of 5 nodes renewed (3 refused, 0 erred); a majority needs 3");
    EXPECT_EQ(extended.nodes[0].reason,
              "the key no longer holds our token (it expired or another client took it)");
    EXPECT_EQ(lock.validUntil(), before);  // unchanged: what was valid stays valid until then
}

TEST_F(RedlockExtend, ExtendAfterTheValidityRanOutSendsNothing) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    // Scaled: under ThreadSanitizer acquiring on five nodes can take most of 100 ms.
    Redlock lock(nodes, "late", {.ttl = scaled(100ms)});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    std::this_thread::sleep_for(scaled(150ms));
    EXPECT_FALSE(lock.isValid());
    RedlockAttempt extended = lock.extend();
    EXPECT_FALSE(extended.succeeded);
    EXPECT_NE(extended.failure.find("the validity ran out"), std::string::npos) << extended.failure;
    EXPECT_EQ(extended.granted(), 0);
}

TEST_F(RedlockExtend, ExtendOfALockNeverHeldIsRefused) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "never");
    RedlockAttempt extended = lock.extend();
    EXPECT_FALSE(extended.succeeded);
    EXPECT_EQ(extended.failure, "not held: acquire first; nothing was sent");
    EXPECT_EQ(totalKeys(), 0);
}

TEST_F(RedlockExtend, ExtendWithTwoNodesDownStillCounts) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "degraded", {.ttl = 5'000ms});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    server(0).stop();
    server(4).stop();
    RedlockAttempt extended = lock.extend();
    EXPECT_TRUE(extended.succeeded) << extended.details();
    EXPECT_EQ(extended.granted(), 3);
    EXPECT_EQ(extended.nodes[0].error, ErrorKind::ConnectionRefused) << extended.nodes[0].reason;
}

TEST_F(RedlockExtend, AnotherClientsKeyIsNeverExtendedNorReleased) {
    auto nodesA = std::make_shared<RedlockNodeSet>(nodeSet()),
         nodesB = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock a(nodesA, "owned", {.ttl = 5'000ms}), b(nodesB, "owned", {.ttl = 5'000ms});
    ASSERT_TRUE(a.tryAcquire().succeeded);
    RedlockAttempt released = b.release();
    EXPECT_EQ(released.granted(), 0);
    EXPECT_EQ(released.refused(), 5);
    EXPECT_EQ(nodesHolding(a.key(), a.token()), 5);
}

TEST_F(RedlockExtend, ScriptsSurviveScriptFlushAndRestart) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "flushy", {.ttl = 5'000ms});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    ASSERT_TRUE(lock.extend().succeeded);  // the scripts are now cached on every node
    for (int i = 0; i < kNodes; ++i) observer(i).command({"SCRIPT", "FLUSH"});
    RedlockAttempt extended = lock.extend();
    EXPECT_TRUE(extended.succeeded) << extended.details();
    EXPECT_EQ(extended.granted(), 5);
    for (int i = 0; i < kNodes; ++i) observer(i).command({"SCRIPT", "FLUSH"});
    RedlockAttempt released = lock.release();
    EXPECT_TRUE(released.succeeded) << released.details();
    EXPECT_EQ(totalKeys(), 0);
}
