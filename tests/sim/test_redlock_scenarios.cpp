// The Redlock stories: the simulated client's majority and validity rules, the clock-jump
// fault, and what the rules compute for redlock-gc-pause and redlock-clock-jump under their
// defaults and under parameters that must change the outcome.

#include <gtest/gtest.h>

#include "lockscope/sim/live_replay.h"
#include "lockscope/sim/replay.h"
#include "lockscope/sim/simulator.h"
#include "lockscope/sim/step_context.h"
#include "lockscope/sim/transcript.h"
#include "redlock_rules.h"
#include "sim_test_support.h"

using namespace lockscope::sim;
using namespace lockscope::sim::testing;

namespace {

int beatOf(const Recording& r, const std::string& actor, const std::string& text) {
    return findBeat(r, [&](const Beat& b) {
        return b.actor == actor && b.narration.find(text) != std::string::npos;
    });
}

}  // namespace

TEST(RedlockRules, MajorityAndValidityFollowTheSpec) {
    EXPECT_EQ(redlockMajority(5), 3);
    EXPECT_EQ(redlockMajority(4), 3);
    EXPECT_EQ(redlockMajority(1), 1);
    EXPECT_EQ(redlockDriftMicros(10000), 102000);         // 10 s × 0.01 + 2 ms
    EXPECT_EQ(redlockValidityMicros(10000, 0), 9898000);  // as tests/redlock pin the library
    EXPECT_EQ(redlockValidityMicros(10000, 50), 9848000);
    EXPECT_LE(redlockValidityMicros(100, 98), 0);  // nothing left: the lock does not hold
}

TEST(ClockJump, KeysOnTheJumpingNodeExpireEarly) {
    World world;
    Recording recording;
    world.lockKey = "lock:r";
    world.node().keyLane = addLane(recording, LaneKind::RedisKey, "lock:r", "");
    world.redis().execute(RedisCommand::set("lock:r", "v", true, TtlUnit::Millis, 10000), 0);
    world.faults.clockJumps.push_back({0, 1000, 3000});
    Simulator::runToEnd(world, recording);
    int jump = findBeat(recording, [](const Beat& b) { return b.time == 1000; });
    ASSERT_GE(jump, 0);
    EXPECT_EQ(recording.events[recording.beats[jump].eventIndex].kind, EventKind::ClockJumped);
    int expiry = findBeat(
        recording, [](const Beat& b) { return b.narration.find("expired") != std::string::npos; });
    ASSERT_GE(expiry, 0);
    // 10 s by its clock, 3 s early by ours; gone once its clock passes the deadline.
    EXPECT_EQ(recording.beats[expiry].time, 7001);
}

TEST(ClockJump, AJumpPastTheDeadlineExpiresTheKeyAtOnce) {
    World world;
    Recording recording;
    world.lockKey = "lock:r";
    world.node().keyLane = addLane(recording, LaneKind::RedisKey, "lock:r", "");
    world.redis().execute(RedisCommand::set("lock:r", "v", true, TtlUnit::Millis, 10000), 0);
    world.faults.clockJumps.push_back({0, 1000, 20000});
    Simulator::runToEnd(world, recording);
    VirtualMs last = 0;
    for (const auto& b : recording.beats) {
        EXPECT_GE(b.time, last);  // time never runs backwards
        last = b.time;
    }
    EXPECT_EQ(recording.beats.back().time, 1000);
    EXPECT_NE(recording.beats.back().narration.find("expired"), std::string::npos);
}

TEST(RedlockGcPause, AStaleWriteCorruptsTheStoreWithoutFencing) {
    RunResult run = simulate("redlock-gc-pause");
    const OutcomeSummary& o = run.outcome;
    EXPECT_EQ(o.overlappingHolds, 1);
    EXPECT_EQ(o.staleWritesAccepted, 1);
    EXPECT_EQ(o.corruptedWrites, 1);
    EXPECT_EQ(o.staleWritesRejected, 0);
    EXPECT_EQ(o.lockAttemptsFailed, 0);
    const Recording& r = run.recording;
    EXPECT_GE(beatOf(r, "client1", "5 of 5 (a majority is 3)"), 0);
    int stale = beatOf(r, "client1", "overwrites client2's newer report");
    ASSERT_GE(stale, 0);
    // It wakes at 15.050 s with 455 ms of its work left (issue 34, item 9), then writes.
    EXPECT_EQ(r.beats[stale].time, 15505);
    EXPECT_TRUE(r.beats[stale].predict.has_value());
}

TEST(RedlockGcPause, AFenceFromTheResourceRejectsTheStaleWrite) {
    RunResult run = simulate("redlock-gc-pause", {"fencing=1"});
    EXPECT_EQ(run.outcome.staleWritesRejected, 1);
    EXPECT_EQ(run.outcome.staleWritesAccepted, 0);
    EXPECT_EQ(run.outcome.corruptedWrites, 0);
    EXPECT_EQ(run.outcome.overlappingHolds, 1);  // the fence does not stop the belief
    EXPECT_GE(beatOf(run.recording, "client1", "Redlock gives no fencing token"), 0);
}

TEST(RedlockGcPause, AShortPauseOrAnEarlyRivalChangesTheStory) {
    RunResult shortPause = simulate("redlock-gc-pause", {"pause_ms=1000"});
    EXPECT_EQ(shortPause.outcome.overlappingHolds, 0);
    EXPECT_EQ(shortPause.outcome.staleWritesAccepted, 0);
    EXPECT_EQ(shortPause.outcome.corruptedWrites, 0);
    // client2 tries while client1's keys are still alive: no majority for it.
    RunResult early = simulate("redlock-gc-pause", {"client2_at_ms=9000"});
    EXPECT_EQ(early.outcome.lockAttemptsFailed, 1);
    EXPECT_EQ(early.outcome.overlappingHolds, 0);
    // client1 still writes after its lease, but no newer holder wrote: late, not stale.
    EXPECT_EQ(early.outcome.staleWritesAccepted, 0);
    EXPECT_EQ(early.outcome.lateWrites, 1);
    EXPECT_EQ(early.outcome.corruptedWrites, 0);
}

TEST(RedlockClockJump, BothClientsBelieveTheyHoldTheLock) {
    RunResult run = simulate("redlock-clock-jump");
    EXPECT_EQ(run.outcome.overlappingHolds, 1);
    EXPECT_EQ(run.outcome.lockAttemptsFailed, 0);
    // client1 writes after its majority is gone, before client2 writes: a late write.
    EXPECT_EQ(run.outcome.staleWritesAccepted, 0);
    EXPECT_EQ(run.outcome.lateWrites, 1);
    const Recording& r = run.recording;
    EXPECT_GE(beatOf(r, "client1", "OK from A, B and C: 3 of 5"), 0);
    int two = beatOf(r, "client2", "OK from C, D and E: 3 of 5");
    ASSERT_GE(two, 0);
    EXPECT_NE(r.beats[two].narration.find("two clients hold it at once"), std::string::npos);
    int expiry = findBeat(r, [](const Beat& b) {
        return b.actor == "C" && b.narration.find("expired") != std::string::npos;
    });
    ASSERT_GE(expiry, 0);
    EXPECT_EQ(r.beats[expiry].time, 1000);
    const Beat& jump = r.beats[expiry - 1];
    ASSERT_TRUE(jump.predict.has_value());
    EXPECT_NE(jump.predict->answer.find("expires at once"), std::string::npos);
}

TEST(RedlockClockJump, WithoutTheJumpClient2FindsNoMajority) {
    for (const char* jump : {"jump_ms=0", "jump_ms=1000"}) {
        RunResult run = simulate("redlock-clock-jump", {jump});
        EXPECT_EQ(run.outcome.overlappingHolds, 0) << jump;
        EXPECT_EQ(run.outcome.lockAttemptsFailed, 1) << jump;
        EXPECT_EQ(run.outcome.staleWritesAccepted, 0) << jump;
        EXPECT_GE(beatOf(run.recording, "client2", "2 of 5"), 0) << jump;
    }
}

TEST(RedlockScenarios, SameSeedSameTranscriptAndSeedsOnlyChangeTokens) {
    for (const char* name : {"redlock-gc-pause", "redlock-clock-jump", "failover", "seat-hold"}) {
        RunResult a = simulate(name, {}, 9), b = simulate(name, {}, 9), c = simulate(name, {}, 10);
        EXPECT_EQ(formatTranscript(a.recording), formatTranscript(b.recording)) << name;
        EXPECT_EQ(a.outcome, c.outcome) << name;
        ASSERT_EQ(a.recording.beats.size(), c.recording.beats.size()) << name;
    }
    EXPECT_NE(formatTranscript(simulate("redlock-gc-pause", {}, 9).recording),
              formatTranscript(simulate("redlock-gc-pause", {}, 10).recording));
}

TEST(RedlockScenarios, ReplaySessionForksAndReRunsWithNewParameters) {
    Replay replay("redlock-gc-pause", 3);
    EXPECT_EQ(replay.outcome().corruptedWrites, 1);
    replay.setParam("fencing", 1);
    EXPECT_EQ(replay.outcome().staleWritesRejected, 1);
    replay.seek(static_cast<int>(replay.beats().size()) / 2);
    EXPECT_GE(replay.currentBeat(), 0);
    EXPECT_EQ(replay.instances(), (std::vector<std::string>{"client1", "client2"}));
    // At client2's verdict every node's key view names client2.
    int verdict = -1;
    for (const auto& b : replay.beats())
        if (b.actor == "client2" && b.narration.find("5 of 5") != std::string::npos)
            verdict = b.index;
    ASSERT_GE(verdict, 0);
    replay.seek(verdict);
    for (int n = 0; n < 5; ++n) EXPECT_EQ(replay.keyView(n).holder, "client2") << n;
    EXPECT_FALSE(replay.keyView(7).exists);
}
