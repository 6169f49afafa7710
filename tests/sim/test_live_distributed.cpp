// The multi-server stories live: runLive starts a private redis-server per node (five
// primaries for Redlock, a primary with real REPLICAOF replicas for the failover stories),
// does the failover for real, and the story must come out as the simulation tells it.
// Replication is held back by a gate only while the model has the write in flight, so when
// the real replica had the key anyway, the second client's SET NX would be refused and the
// run would diverge.

#include <chrono>

#include "live_parity_support.h"
#include "lockscope/connection.h"
#include "lockscope/errors.h"
#include "lockscope/sim/live_replay.h"

using namespace lockscope;
using namespace lockscope::sim;
using lockscope::sim::testing::expectSameStory;

namespace {

// Seat-hold's long payments with 10-minute holds can run faster than the default pace; the
// other stories keep it, so that a busy machine's hiccup stays far from a TTL.
constexpr int kFastRealMsPerVirtualSecond = 20;

struct LiveAndSimulated {
    RunResult live, simulated;
};

// realMsPerVirtualSecond 0: the scenario's default pace.
LiveAndSimulated runBoth(const std::string& name, const std::vector<std::string>& sets = {},
                         int realMsPerVirtualSecond = 0) {
    const Scenario& scenario = scenarioNamed(name);
    ScenarioParams params = scenario.defaults();
    for (const auto& s : sets) params.assign(s);
    LiveOptions options;
    options.realMsPerVirtualSecond = realMsPerVirtualSecond;
    LiveAndSimulated both{runLive(scenario, params, 5, options), runSimulated(scenario, params, 5)};
    expectSameStory(both.live, both.simulated);
    return both;
}

// The servers of a finished run are gone: they were the run's own, on loopback.
void expectPrivateServersStopped(const RunResult& run, std::size_t count) {
    ASSERT_EQ(run.servers.size(), count);
    for (const auto& line : run.servers) {
        EXPECT_NE(line.find("redis://127.0.0.1:"), std::string::npos) << line;
        std::string url = line.substr(line.find("redis://"));
        url = url.substr(0, url.find(' '));
        EXPECT_THROW(Connection::open(parseEndpoint(url)), IoError) << url;
    }
}

}  // namespace

TEST(LiveDistributed, RedlockGcPauseCorruptsTheStoreOnFiveRealPrimaries) {
    LiveAndSimulated run = runBoth("redlock-gc-pause");
    EXPECT_EQ(run.live.outcome.overlappingHolds, 1);
    EXPECT_EQ(run.live.outcome.staleWritesAccepted, 1);
    expectPrivateServersStopped(run.live, 5);
}

TEST(LiveDistributed, RedlockGcPauseWithFencingRejectsTheStaleWrite) {
    LiveAndSimulated run = runBoth("redlock-gc-pause", {"fencing=1"});
    EXPECT_EQ(run.live.outcome.staleWritesRejected, 1);
}

TEST(LiveDistributed, RedlockClockJumpLetsTwoClientsHoldAMajority) {
    LiveAndSimulated run = runBoth("redlock-clock-jump");
    EXPECT_EQ(run.live.outcome.overlappingHolds, 1);
    expectPrivateServersStopped(run.live, 5);
}

TEST(LiveDistributed, RedlockClockJumpTooSmallToExpireTheKeyKeepsClient2Out) {
    LiveAndSimulated run = runBoth("redlock-clock-jump", {"jump_ms=2000"});
    EXPECT_EQ(run.live.outcome.overlappingHolds, 0);
    EXPECT_EQ(run.live.outcome.lockAttemptsFailed, 1);
}

TEST(LiveDistributed, FailoverPromotesAReplicaThatNeverSawTheLock) {
    LiveAndSimulated run = runBoth("failover");
    EXPECT_EQ(run.live.outcome.overlappingHolds, 1);
    expectPrivateServersStopped(run.live, 3);
}

TEST(LiveDistributed, FailoverAfterTheReplicaGotTheLockKeepsClient2Out) {
    LiveAndSimulated run = runBoth("failover", {"failover_at_ms=100"});
    EXPECT_EQ(run.live.outcome.overlappingHolds, 0);
}

TEST(LiveDistributed, RealWaitThatTimesOutMakesClient1GiveTheLockBack) {
    LiveAndSimulated run = runBoth("failover", {"wait=1"});
    EXPECT_EQ(run.live.outcome.waitsShort, 1);
    EXPECT_EQ(run.live.outcome.overlappingHolds, 0);
}

TEST(LiveDistributed, RealWaitAcknowledgedButTheOtherReplicaIsPromoted) {
    LiveAndSimulated run = runBoth("failover", {"wait=1", "failover_at_ms=100", "promote=3"});
    EXPECT_EQ(run.live.outcome.waitsShort, 0);
    EXPECT_EQ(run.live.outcome.overlappingHolds, 1);
}

TEST(LiveDistributed, SeatHoldSellsSeatsTwiceAfterARealFailover) {
    LiveAndSimulated run = runBoth("seat-hold", {}, kFastRealMsPerVirtualSecond);
    EXPECT_GT(run.live.outcome.seatsSoldTwice, 0);
    expectPrivateServersStopped(run.live, 2);
}

TEST(LiveDistributed, SeatHoldWithTheUniqueConstraintRefusesTheSecondConfirmation) {
    LiveAndSimulated run = runBoth("seat-hold", {"fix=1"}, kFastRealMsPerVirtualSecond);
    EXPECT_EQ(run.live.outcome.seatsSoldTwice, 0);
    EXPECT_GT(run.live.outcome.bookingsRefused, 0);
}

TEST(LiveDistributed, IgnoresTheEndpointAndRunsOnItsOwnServers) {
    const Scenario& scenario = scenarioNamed("failover");
    EXPECT_TRUE(runsOnPrivateServers(scenario, scenario.defaults()));
    EXPECT_FALSE(runsOnPrivateServers(scenarioNamed("broken-report"),
                                      scenarioNamed("broken-report").defaults()));
    LiveOptions options;
    options.endpoint = parseEndpoint("redis://127.0.0.1:1");  // nothing listens there
    RunResult live = runLive(scenario, scenario.defaults(), 5, options);
    EXPECT_TRUE(live.divergences.empty());
    EXPECT_EQ(live.servers.size(), 3u);
}

// Issue 19's changed rules, live: the fencing trap, late Redlock replies, an expired lease
// blamed on expiry rather than the failover, the conditional-update fix.
TEST(LiveDistributed, RedlockVersionTrapLetsTheStaleWriterWinOnRealPrimaries) {
    LiveAndSimulated run = runBoth("redlock-gc-pause", {"fencing=2"});
    EXPECT_EQ(run.live.outcome.staleWritesAccepted, 1);
}

TEST(LiveDistributed, RedlockRepliesSlowerThanTheTimeoutLeaveNoLock) {
    LiveAndSimulated run = runBoth("redlock-gc-pause", {"latency_ms=60"});
    EXPECT_EQ(run.live.outcome.lockAttemptsFailed, 2);
    EXPECT_EQ(run.live.outcome.staleWritesAccepted, 0);
}

TEST(LiveDistributed, FailoverWithAnExpiredLeaseBlamesTheExpiry) {
    LiveAndSimulated run = runBoth("failover", {"ttl_ms=500"});
    EXPECT_EQ(run.live.outcome.overlapsAfterLeaseExpired, 1);
    EXPECT_EQ(run.live.outcome.overlapsAfterFailover, 0);
}

TEST(LiveDistributed, SeatHoldConditionalUpdateRefusesTheSecondConfirmation) {
    LiveAndSimulated run = runBoth("seat-hold", {"fix=2"}, kFastRealMsPerVirtualSecond);
    EXPECT_EQ(run.live.outcome.seatsSoldTwice, 0);
    EXPECT_GT(run.live.outcome.bookingsRefused, 0);
}
