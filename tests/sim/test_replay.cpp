// Stepping, seeking through checkpoints, and forking on a user action.

#include <gtest/gtest.h>

#include "lockscope/errors.h"
#include "lockscope/sim/live_replay.h"
#include "lockscope/sim/replay.h"
#include "lockscope/sim/simulator.h"
#include "sim_test_support.h"

using namespace lockscope;
using namespace lockscope::sim;
using namespace lockscope::sim::testing;

namespace {

// What the panel shows of the state after a beat, as one comparable string.
std::string snapshot(const Replay& r) {
    KeyView k = r.keyView();
    const World& w = r.state();
    return std::to_string(r.currentBeat()) + "|" + std::to_string(w.now) + "|" +
           std::to_string(w.steps) + "|" + k.holder + "|" + k.value + "|" +
           std::to_string(k.fence) + "|" + std::to_string(k.pttl) + "|" + w.file.describe() + "|" +
           formatOutcome(w.outcome);
}

}  // namespace

TEST(Replay, StepBackThenForwardReachesTheSameState) {
    Replay replay("broken-report");
    std::vector<std::string> forward;
    forward.push_back(snapshot(replay));
    while (replay.stepForward()) forward.push_back(snapshot(replay));
    ASSERT_EQ(forward.size(), replay.beats().size() + 1);
    for (int i = static_cast<int>(forward.size()) - 2; i >= 0; --i) {
        ASSERT_TRUE(replay.stepBack());
        ASSERT_EQ(snapshot(replay), forward[i]) << "stepping back to beat " << i - 1;
    }
    EXPECT_FALSE(replay.stepBack());
    for (std::size_t i = 1; i < forward.size(); ++i) {
        ASSERT_TRUE(replay.stepForward());
        ASSERT_EQ(snapshot(replay), forward[i]);
    }
    EXPECT_FALSE(replay.stepForward());
    // The explorer's properties are judged once the run has ended (Simulator::finish), so
    // only the final outcome carries them; every count agrees.
    OutcomeSummary soFar = replay.outcomeSoFar();
    soFar.broken = replay.outcome().broken;
    EXPECT_EQ(soFar, replay.outcome());
}

TEST(Replay, SeekRestoresACheckpointAndResimulatesOnlyTheGap) {
    Replay replay("fixed-report");
    int last = static_cast<int>(replay.beats().size()) - 1;
    replay.seek(last);
    int totalSteps = replay.state().steps;
    for (int beat = 0; beat <= last; ++beat) {
        replay.seek(beat);
        EXPECT_LT(replay.lastResimulatedSteps(), totalSteps / 2) << beat;
        // The same state as simulating straight from the start.
        World world;
        Recording scratch;
        buildScenario(replay.scenario(), replay.params(), replay.seed(), world, scratch);
        while (world.steps < replay.state().steps) ASSERT_TRUE(Simulator::advance(world, scratch));
        EXPECT_EQ(world.outcome, replay.state().outcome);
        EXPECT_EQ(world.now, replay.state().now);
        EXPECT_EQ(world.redis().pttl(world.lockKey, world.now), replay.keyView().pttl);
        EXPECT_EQ(world.file.describe(), replay.state().file.describe());
    }
}

TEST(Replay, KeyViewFollowsTheLock) {
    Replay replay("fixed-report");
    const Recording& r = replay.recording();
    int cTakes = findBeat(
        r, [](const Beat& b) { return sends(b, "C", "EVALSHA") && b.reply == "(integer) 2"; });
    ASSERT_GE(cTakes, 0);
    replay.seek(cTakes);
    KeyView k = replay.keyView();
    EXPECT_TRUE(k.exists);
    EXPECT_EQ(k.holder, "C");
    EXPECT_EQ(k.fence, 2);
    EXPECT_EQ(k.pttl, 30000);
}

TEST(Replay, PredictQuestionIsAskedOneBeatEarly) {
    Replay replay("broken-report");
    int aDeletes = findBeat(replay.recording(), [](const Beat& b) { return sends(b, "A", "DEL"); });
    ASSERT_GT(aDeletes, 0);
    replay.seek(aDeletes - 1);
    auto question = replay.pendingQuestion();
    ASSERT_TRUE(question.has_value());
    EXPECT_NE(question->find("What does its DEL"), std::string::npos);
    replay.stepForward();
    ASSERT_TRUE(replay.beat()->predict.has_value());
    EXPECT_NE(replay.beat()->predict->answer.find("B's lock"), std::string::npos);
}

TEST(Replay, PausingBetweenRenewalAndWriteCorruptsTheFileButNotTheStore) {
    // The fixed job without its scripted pause: nothing is stale.
    ScenarioParams params = scenarioNamed("fixed-report").defaults();
    params.set("pause_instance", 0);
    Replay replay("fixed-report", params);
    EXPECT_EQ(replay.outcome().staleWritesRejected, 0);
    EXPECT_EQ(replay.outcome().corruptedWrites, 0);
    const Recording before = replay.recording();

    // Step to A's last renewal (40 s) and freeze A there for 45 s, before it writes chunk 7.
    int lastExtend = -1;
    for (const auto& b : before.beats)
        if (sends(b, "A", "EVALSHA") && b.time == 40000) lastExtend = b.index;
    ASSERT_GE(lastExtend, 0);
    replay.seek(lastExtend);
    replay.pauseInstance("A", 45000);

    // The story up to the fork is unchanged.
    const Recording& after = replay.recording();
    for (int i = 0; i <= lastExtend; ++i)
        ASSERT_EQ(after.beats[i].narration, before.beats[i].narration);
    EXPECT_EQ(replay.currentBeat(), lastExtend);
    // By the rules: A's lease runs out at 70 s, C takes fence 2 at 72 s and saves; A wakes
    // at 85 s, writes its chunk into C's file (corrupted) and its save with fence 1 fails.
    const OutcomeSummary& o = replay.outcome();
    EXPECT_EQ(o.corruptedWrites, 1);
    EXPECT_EQ(o.staleWritesRejected, 1);
    EXPECT_EQ(o.emailsSent, 1);
    int pauseBeat = findBeat(after, [](const Beat& b) {
        return b.actor == "A" && b.narration.find("frozen") != std::string::npos;
    });
    ASSERT_EQ(pauseBeat, lastExtend + 1);
    EXPECT_EQ(after.beats[pauseBeat].time, 40000);
}

TEST(Replay, CrashingAAfterItsSetRemovesTheForeignDeletion) {
    Replay replay("broken-report");
    EXPECT_EQ(replay.outcome().foreignDeletions, 2);
    int aTakes = findBeat(replay.recording(), [](const Beat& b) { return sends(b, "A", "SET"); });
    replay.seek(aTakes);
    replay.crashInstance("A");
    // A never reaches its DEL or its email; B runs after A's lock expires, and C, with no
    // DEL to remove B's lock, is refused.
    EXPECT_EQ(replay.outcome().foreignDeletions, 0);
    EXPECT_EQ(replay.outcome().runsCrashed, 1);
    EXPECT_EQ(replay.outcome().emailsSent, 1);
    EXPECT_EQ(replay.outcome().runsRefused, 1);
    EXPECT_THROW(replay.crashInstance("A"), InvalidArgumentError);
    EXPECT_THROW(replay.pauseInstance("Z", 1000), InvalidArgumentError);
    EXPECT_THROW(replay.pauseInstance("B", 0), InvalidArgumentError);
}

TEST(Replay, ParameterChangeRerunsAndKeepsUserActions) {
    Replay replay("broken-report");
    int aTakes = findBeat(replay.recording(), [](const Beat& b) { return sends(b, "A", "SET"); });
    replay.seek(aTakes);
    replay.crashInstance("A");
    replay.setParam("instances", 2);  // C is gone; A's crash is applied again
    EXPECT_EQ(replay.instances(), (std::vector<std::string>{"A", "B"}));
    EXPECT_EQ(replay.outcome().runsCrashed, 1);
    EXPECT_EQ(replay.outcome().emailsSent, 1);
    EXPECT_THROW(replay.setParam("instances", 99), InvalidArgumentError);
    EXPECT_THROW(replay.setParam("pause_instance", 5), InvalidArgumentError);  // only 2
    EXPECT_EQ(replay.params().get("instances"), 2);  // unchanged after a refused edit
    EXPECT_EQ(replay.outcome().emailsSent, 1);
}
