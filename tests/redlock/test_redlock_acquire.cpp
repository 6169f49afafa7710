// Acquire and release across five real redis-servers: majorities, nodes that are down,
// per-node outcomes with reasons, and the release-everywhere rule after a failed attempt.

#include <thread>

#include "five_redis_servers.h"
#include "lockscope/redlock/redlock.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::FiveRedisServers;

using RedlockAcquire = FiveRedisServers;

TEST_F(RedlockAcquire, AllFiveGrantAndReleaseRemovesEveryKey) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "report:daily", {.ttl = 10'000ms});
    RedlockAttempt attempt = lock.tryAcquire();
    ASSERT_TRUE(attempt.succeeded) << attempt.details();
    EXPECT_EQ(attempt.granted(), 5);
    EXPECT_EQ(attempt.quorum, 3);
    EXPECT_TRUE(attempt.failure.empty());
    EXPECT_GT(attempt.validity, 9'800ms);  // 10 000 − 102 − a fraction of a millisecond
    EXPECT_LE(attempt.validity, 9'898ms);
    EXPECT_TRUE(lock.isValid());
    EXPECT_GT(lock.validityLeft(), 9'000ms);
    for (const auto& node : attempt.nodes) {
        EXPECT_EQ(node.verdict, NodeVerdict::Granted);
        EXPECT_FALSE(node.error);
        EXPECT_EQ(node.reason, "SET NX PX answered OK");
    }
    EXPECT_EQ(nodesHolding(lock.key(), lock.token()), 5);
    for (int i = 0; i < kNodes; ++i) {
        auto pttl = observer(i).command({"PTTL", lock.key()}).integer();
        EXPECT_GT(pttl, 9'000);
        EXPECT_LE(pttl, 10'000);
    }

    RedlockAttempt released = lock.release();
    EXPECT_TRUE(released.succeeded) << released.details();
    EXPECT_EQ(released.granted(), 5);
    EXPECT_FALSE(lock.isValid());
    EXPECT_EQ(totalKeys(), 0);
}

TEST_F(RedlockAcquire, SecondClientIsRefusedEverywhereAndLeavesTheHoldersKeys) {
    auto nodesA = std::make_shared<RedlockNodeSet>(nodeSet()),
         nodesB = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock a(nodesA, "job"), b(nodesB, "job");
    ASSERT_TRUE(a.tryAcquire().succeeded);
    RedlockAttempt attempt = b.tryAcquire();
    EXPECT_FALSE(attempt.succeeded);
    EXPECT_EQ(attempt.refused(), 5);
    EXPECT_EQ(attempt.failure,
              "only 0 of 5 nodes granted (5 refused, 0 erred); a majority needs 3");
    EXPECT_EQ(attempt.nodes[2].reason, "another token holds the key (SET NX answered nil)");
    EXPECT_FALSE(b.isValid());
    // b's release-everywhere after its failure is owner-checked: a's keys survive.
    EXPECT_EQ(nodesHolding(a.key(), a.token()), 5);
}

TEST_F(RedlockAcquire, TwoNodesDownStillMakeAMajority) {
    server(1).stop();
    server(3).stop();
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "two-down", {.ttl = 5'000ms});
    RedlockAttempt attempt = lock.tryAcquire();
    ASSERT_TRUE(attempt.succeeded) << attempt.details();
    EXPECT_EQ(attempt.granted(), 3);
    EXPECT_EQ(attempt.errors(), 2);
    for (int i : {1, 3}) {
        const NodeOutcome& down = attempt.nodes[i];
        EXPECT_EQ(down.verdict, NodeVerdict::Error);
        EXPECT_EQ(down.error, ErrorKind::ConnectionRefused) << down.reason;
        EXPECT_NE(down.reason.find(server(i).url()), std::string::npos) << down.reason;
        EXPECT_NE(down.reason.find("refused"), std::string::npos) << down.reason;
    }
    EXPECT_NE(attempt.details().find("node 2 " + server(1).url() + ": error (cannot connect)"),
              std::string::npos)
        << attempt.details();
    EXPECT_EQ(nodesHolding(lock.key(), lock.token()), 3);
    EXPECT_TRUE(lock.release().errors() == 2);
    EXPECT_EQ(totalKeys(), 0);
}

TEST_F(RedlockAcquire, ThreeNodesDownFailsCleanlyAndLeavesNoKey) {
    for (int i : {0, 2, 4}) server(i).stop();
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    std::vector<RedlockAttempt> rounds;
    Redlock lock(nodes, "three-down", {.ttl = 5'000ms, .onAttempt = [&](const RedlockAttempt& a) {
                                           rounds.push_back(a);
                                       }});
    RedlockAttempt attempt = lock.tryAcquire();
    EXPECT_FALSE(attempt.succeeded);
    EXPECT_EQ(attempt.granted(), 2);
    EXPECT_EQ(attempt.errors(), 3);
    EXPECT_EQ(attempt.failure,
              "only 2 of 5 nodes granted (0 refused, 3 erred); a majority needs 3");
    EXPECT_FALSE(lock.isValid());
    // The attempt, then the release on every node that the failure triggers.
    ASSERT_EQ(rounds.size(), 2u);
    EXPECT_EQ(rounds[1].operation, RedlockOperation::Release);
    EXPECT_EQ(rounds[1].granted(), 2);  // the two keys it did set are gone again
    EXPECT_EQ(totalKeys(), 0);
    // And nothing appears on the stopped nodes when they come back.
    for (int i : {0, 2, 4}) server(i).start();
    EXPECT_EQ(totalKeys(), 0);
}

TEST_F(RedlockAcquire, ReleaseAfterAFailedAttemptDeletesOnlyOurKeys) {
    // Another client (plain SETs) holds the resource on three nodes.
    const std::string key = "lock:{shared}";
    for (int i : {0, 1, 2}) observer(i).command({"SET", key, "someone-else", "PX", "10000"});
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "shared");
    RedlockAttempt attempt = lock.tryAcquire();
    EXPECT_FALSE(attempt.succeeded);
    EXPECT_EQ(attempt.granted(), 2);
    EXPECT_EQ(attempt.refused(), 3);
    auto values = valuesOf(key);
    for (int i : {0, 1, 2}) EXPECT_EQ(values[i], "someone-else");
    for (int i : {3, 4}) EXPECT_FALSE(values[i]) << "our key was left on node " << i;
}

TEST_F(RedlockAcquire, MajorityWithSomeNodesHeldElsewhere) {
    const std::string key = "lock:{partial}";
    for (int i : {3, 4}) observer(i).command({"SET", key, "stale", "PX", "10000"});
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "partial");
    RedlockAttempt attempt = lock.tryAcquire();
    EXPECT_TRUE(attempt.succeeded) << attempt.details();
    EXPECT_EQ(attempt.granted(), 3);
    EXPECT_EQ(attempt.nodes[4].verdict, NodeVerdict::Refused);
    lock.release();
    EXPECT_EQ(valuesOf(key)[3], "stale");  // never deleted by our release
}

TEST_F(RedlockAcquire, RetriesUntilTheHolderLetsGo) {
    auto nodesA = std::make_shared<RedlockNodeSet>(nodeSet()),
         nodesB = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock a(nodesA, "retry", {.ttl = 5'000ms});
    ASSERT_TRUE(a.tryAcquire().succeeded);
    std::jthread holder([&] {
        std::this_thread::sleep_for(150ms);
        a.release();
    });
    std::vector<int> numbers;
    RedlockOptions options{.ttl = 5'000ms, .onAttempt = [&](const RedlockAttempt& r) {
                               if (r.operation == RedlockOperation::Acquire)
                                   numbers.push_back(r.number);
                           }};
    Redlock c(nodesB, "retry", options);
    auto start = std::chrono::steady_clock::now();
    RedlockAttempt attempt = c.acquire(start + 3s, {.delay = 20ms, .jitter = 20ms});
    EXPECT_TRUE(attempt.succeeded) << attempt.details();
    EXPECT_GT(attempt.number, 1);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 140ms);
    ASSERT_FALSE(numbers.empty());
    EXPECT_EQ(numbers.back(), attempt.number);
    for (std::size_t i = 0; i < numbers.size(); ++i) EXPECT_EQ(numbers[i], static_cast<int>(i) + 1);
}

TEST_F(RedlockAcquire, GivesUpAtTheDeadline) {
    auto nodesA = std::make_shared<RedlockNodeSet>(nodeSet()),
         nodesB = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock a(nodesA, "busy"), b(nodesB, "busy");
    ASSERT_TRUE(a.tryAcquire().succeeded);
    auto start = std::chrono::steady_clock::now();
    RedlockAttempt attempt = b.acquire(start + 200ms, {.delay = 30ms, .jitter = 30ms});
    auto took = std::chrono::steady_clock::now() - start;
    EXPECT_FALSE(attempt.succeeded);
    EXPECT_GT(attempt.number, 1);
    EXPECT_LT(took, 400ms);
    EXPECT_EQ(nodesHolding(a.key(), a.token()), 5);
}

TEST_F(RedlockAcquire, GuardReleasesOnScopeExit) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    {
        Redlock lock(nodes, "guarded");
        ASSERT_TRUE(lock.tryAcquire().succeeded);
        RedlockGuard guard(lock);
        EXPECT_EQ(totalKeys(), 5);
    }
    EXPECT_EQ(totalKeys(), 0);
}

TEST_F(RedlockAcquire, SummaryNamesTheCounts) {
    server(4).stop();
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "summary", {.ttl = 10'000ms});
    RedlockAttempt attempt = lock.tryAcquire();
    std::string s = attempt.summary();
    EXPECT_EQ(s.rfind("acquire #1 lock:{summary}: 4/5 granted (quorum 3) in ", 0), 0u) << s;
    EXPECT_NE(s.find(", validity 98"), std::string::npos) << s;
    EXPECT_NE(s.find("— held"), std::string::npos) << s;
}
