// The hole the Redlock spec warns about: a node that restarts without persistence forgets
// the key it granted, so a second client can assemble a majority while the first still
// counts that node in its own. Delaying the restart by the maximum TTL closes the hole (as
// does persistence with fsync always).

#include <thread>

#include "five_redis_servers.h"
#include "lockscope/redlock/redlock.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::FiveRedisServers;

namespace {

constexpr auto kTtl = 1'500ms;

}  // namespace

class RedlockRestart : public FiveRedisServers {
  protected:
    // Client A holds nodes 0, 1, 2 (nodes 3 and 4 were down while it acquired, then came
    // back empty). Returns A's attempt.
    RedlockAttempt acquireOnFirstThree(Redlock& a) {
        server(3).stop();
        server(4).stop();
        RedlockAttempt attempt = a.tryAcquire();
        server(3).start();
        server(4).start();
        return attempt;
    }
};

TEST_F(RedlockRestart, NodeRestartedWithoutPersistenceLetsASecondClientIn) {
    auto nodesA = std::make_shared<RedlockNodeSet>(nodeSet()),
         nodesB = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock a(nodesA, "payment", {.ttl = kTtl}), b(nodesB, "payment", {.ttl = kTtl});
    RedlockAttempt first = acquireOnFirstThree(a);
    ASSERT_TRUE(first.succeeded) << first.details();
    ASSERT_EQ(first.granted(), 3);

    server(2).restart();  // no persistence: node 2 forgets A's key
    RedlockAttempt second = b.tryAcquire();

    // Both believe they hold the lock, and by Redlock's own rules both are right.
    EXPECT_TRUE(second.succeeded) << second.details();
    EXPECT_EQ(second.granted(), 3);  // nodes 2, 3, 4
    EXPECT_TRUE(a.isValid()) << "the hole needs A still inside its validity";
    EXPECT_TRUE(b.isValid());
    EXPECT_EQ(nodesHolding(a.key(), a.token()), 2);
    EXPECT_EQ(nodesHolding(b.key(), b.token()), 3);
}

TEST_F(RedlockRestart, DelayingTheRestartByTheMaxTtlClosesTheHole) {
    auto nodesA = std::make_shared<RedlockNodeSet>(nodeSet()),
         nodesB = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock a(nodesA, "payment", {.ttl = kTtl}), b(nodesB, "payment", {.ttl = kTtl});
    ASSERT_TRUE(acquireOnFirstThree(a).succeeded);

    // Node 2 crashes and stays out for the longest TTL any client uses before it rejoins.
    server(2).stop();
    std::this_thread::sleep_for(kTtl);
    server(2).start();

    RedlockAttempt second = b.tryAcquire();
    EXPECT_TRUE(second.succeeded) << second.details();
    EXPECT_FALSE(a.isValid()) << "A's lease must have ended before B could get in";
    EXPECT_LT(a.validUntil(), second.sentAt);
}

TEST_F(RedlockRestart, WhileTheNodeIsKeptOutTheSecondClientHasNoMajority) {
    auto nodesA = std::make_shared<RedlockNodeSet>(nodeSet()),
         nodesB = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock a(nodesA, "payment", {.ttl = kTtl}), b(nodesB, "payment", {.ttl = kTtl});
    ASSERT_TRUE(acquireOnFirstThree(a).succeeded);
    server(2).stop();  // crashed, not yet allowed back
    RedlockAttempt second = b.tryAcquire();
    EXPECT_FALSE(second.succeeded);
    EXPECT_EQ(second.granted(), 2);  // nodes 3 and 4 only
    EXPECT_EQ(second.errors(), 1);
    EXPECT_TRUE(a.isValid());
}

class RedlockRestartPersistent : public RedlockRestart {
  protected:
    LocalRedisServerOptions serverOptions(int) const override { return {.persistence = true}; }
};

TEST_F(RedlockRestartPersistent, AppendOnlyFsyncAlwaysKeepsTheKeyAcrossTheRestart) {
    auto nodesA = std::make_shared<RedlockNodeSet>(nodeSet()),
         nodesB = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock a(nodesA, "payment", {.ttl = kTtl}), b(nodesB, "payment", {.ttl = kTtl});
    ASSERT_TRUE(acquireOnFirstThree(a).succeeded);
    server(2).restart();
    RedlockAttempt second = b.tryAcquire();
    EXPECT_FALSE(second.succeeded) << second.details();
    EXPECT_EQ(second.nodes[2].verdict, NodeVerdict::Refused) << second.details();
    EXPECT_EQ(nodesHolding(a.key(), a.token()), 3);
}
