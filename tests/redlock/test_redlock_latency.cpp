// Latency eats validity: the time a round spends waiting for its slowest node is subtracted
// from the TTL. A node stopped with SIGSTOP costs the whole node timeout; a node busy in
// DEBUG SLEEP answers late but in time.

#include <thread>

#include "five_redis_servers.h"
#include "lockscope/redlock/redlock.h"
#include "lockscope/redlock/validity.h"
#include "sanitizer_time.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::FiveRedisServers;
using lockscope::testing::scaled;

class RedlockLatency : public FiveRedisServers {
  protected:
    LocalRedisServerOptions serverOptions(int) const override {
        return {.configLines = {"enable-debug-command local"}};
    }
};

TEST_F(RedlockLatency, APausedNodeCostsTheNodeTimeoutAndShrinksTheValidity) {
    // Scaled together: the node timeout, the TTL and every bound on elapsed time. Under
    // ThreadSanitizer a healthy round could take longer than an unscaled node timeout.
    const auto ttl = scaled(2'000ms), nodeTimeout = scaled(100ms);
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock baseline(nodes, "slow", {.ttl = ttl, .nodeTimeout = nodeTimeout});
    RedlockAttempt fast = baseline.tryAcquire();
    ASSERT_TRUE(fast.succeeded) << fast.details();
    baseline.release();

    server(4).pause();  // SIGSTOP: the socket accepts, nothing answers
    Redlock lock(nodes, "slow", {.ttl = ttl, .nodeTimeout = nodeTimeout});
    RedlockAttempt slow = lock.tryAcquire();
    server(4).resume();

    ASSERT_TRUE(slow.succeeded) << slow.details();
    EXPECT_EQ(slow.granted(), 4);
    const NodeOutcome& paused = slow.nodes[4];
    EXPECT_EQ(paused.verdict, NodeVerdict::Error);
    EXPECT_EQ(paused.error, ErrorKind::Timeout);
    EXPECT_EQ(paused.reason, "no reply from " + server(4).url() + " within " +
                                 std::to_string(nodeTimeout.count()) + " ms");
    EXPECT_GE(slow.elapsed, nodeTimeout);
    EXPECT_LT(slow.elapsed, scaled(200ms));  // one timeout for the round, not one per node
    // 2000 − 22 − 100 ms in the normal build.
    EXPECT_LE(slow.validity, ttl - redlockDriftAllowance(ttl) - nodeTimeout);
    EXPECT_GE(fast.validity - slow.validity, scaled(90ms));
    lock.release();
}

TEST_F(RedlockLatency, ThreePausedNodesCostOneTimeoutNotThree) {
    for (int i : {0, 1, 2}) server(i).pause();
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "slow", {.ttl = 2'000ms, .nodeTimeout = 80ms});
    auto start = std::chrono::steady_clock::now();
    RedlockAttempt attempt = lock.tryAcquire();
    for (int i : {0, 1, 2}) server(i).resume();
    EXPECT_FALSE(attempt.succeeded);
    EXPECT_EQ(attempt.errors(), 3);
    EXPECT_LT(attempt.elapsed, 160ms);
    // The attempt and its release round: two timeouts at most, never six.
    EXPECT_LT(std::chrono::steady_clock::now() - start, 320ms);
    // A request that timed out is not a request that never ran: once resumed, the servers
    // execute what was queued, so a SET can land after its attempt gave up. That key is
    // still bounded by its TTL, which is why every grant carries one.
    std::this_thread::sleep_for(50ms);
    for (int i : {0, 1, 2}) {
        auto pttl = observer(i).command({"PTTL", lock.key()}).integer();
        EXPECT_LE(pttl, 2'000) << "node " << i;
    }
}

TEST_F(RedlockLatency, ASlowNodeAnswersLateAndTheValidityShrinksByTheDelay) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "sleepy", {.ttl = 3'000ms, .nodeTimeout = 250ms});
    std::jthread sleeper([&] {
        Connection c = Connection::open(server(3).endpoint());
        c.command({"DEBUG", "SLEEP", "0.12"});
    });
    std::this_thread::sleep_for(20ms);  // let DEBUG SLEEP start
    RedlockAttempt attempt = lock.tryAcquire();
    ASSERT_TRUE(attempt.succeeded) << attempt.details();
    EXPECT_EQ(attempt.granted(), 5);  // late, but within its timeout
    EXPECT_GE(attempt.nodes[3].latency, 60ms);
    EXPECT_GE(attempt.elapsed, 60ms);
    EXPECT_LE(attempt.validity, 3'000ms - 32ms - 60ms);
    lock.release();
}
