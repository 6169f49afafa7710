// Issue 34, "what the guide says that no story shows": Redlock with N nodes (3, 5 or 7, the
// quorum N/2 + 1 and its cost), and Kleppmann's efficiency / correctness frame in verdicts.

#include <gtest/gtest.h>

#include "lockscope/sim/run_verdict.h"
#include "sim_test_support.h"

using namespace lockscope::sim;
using namespace lockscope::sim::testing;

namespace {

int keyLanes(const Recording& r) {
    int n = 0;
    for (const Lane& lane : r.lanes) n += lane.kind == LaneKind::RedisKey;
    return n;
}

// The SETs client1's first acquire sent, one per node.
int acquireSets(const Recording& r) {
    int n = 0;
    for (const Beat& b : r.beats)
        n += b.actor == "client1" && b.time == 0 && b.command.find("NX PX") != std::string::npos;
    return n;
}

}  // namespace

TEST(GuidePoints, RedlockRunsOnThreeFiveOrSevenNodesWithAQuorumOfHalfPlusOne) {
    for (const auto& [nodes, quorum] : {std::pair{3, 2}, std::pair{5, 3}, std::pair{7, 4}}) {
        SCOPED_TRACE(nodes);
        const RunResult run = simulate("redlock-gc-pause", {"nodes=" + std::to_string(nodes)});
        EXPECT_EQ(keyLanes(run.recording), nodes);
        EXPECT_EQ(acquireSets(run.recording), nodes);  // the cost: one round trip per node
        const int intro = findBeat(run.recording, [](const Beat& b) { return b.time == 0; });
        ASSERT_GE(intro, 0);
        EXPECT_NE(
            run.recording.beats[intro].narration.find("a majority of " + std::to_string(quorum)),
            std::string::npos)
            << run.recording.beats[intro].narration;
        // No N saves a lock from a pause past its TTL: the stale write lands on every N.
        EXPECT_EQ(run.outcome.overlappingHolds, 1);
        EXPECT_EQ(run.outcome.staleWritesAccepted, 1);
    }
}

TEST(GuidePoints, VerdictsFrameTheLockAsForEfficiencyOrForCorrectness) {
    // The lock failed, the fence kept the result right: the resource's check did it.
    const std::string fenced = runVerdict(simulate("redlock-gc-pause", {"fencing=1"}).outcome);
    EXPECT_NE(fenced.find("for correctness it was the resource's own check"), std::string::npos)
        << fenced;
    // Damage: a lock alone is not enough for correctness.
    const std::string broken = runVerdict(simulate("redlock-gc-pause").outcome);
    EXPECT_NE(broken.find("For correctness a lock alone is not enough"), std::string::npos)
        << broken;
}

// seat-hold closes with the guide's token note: why a version the database increments (or an
// atomically incremented counter) is a fencing token and a version read and written back is
// the trap.
TEST(GuidePoints, SeatHoldSaysWhichTokensFenceAndWhichIsTheTrap) {
    const RunResult run = simulate("seat-hold");
    const int note = findBeat(run.recording, [](const Beat& b) {
        return b.narration.find("derived from the booking version") != std::string::npos;
    });
    ASSERT_GE(note, 0);
    const std::string& text = run.recording.beats[note].narration;
    EXPECT_NE(text.find("atomically incremented counter"), std::string::npos) << text;
    EXPECT_NE(text.find("two holders can read the same version"), std::string::npos) << text;
}

// Kleppmann's frame in every story's opening narration: what a lock for efficiency may
// allow and what a lock for correctness must not.
TEST(GuidePoints, EveryStoryOpensWithTheEfficiencyOrCorrectnessFrame) {
    for (const Scenario& s : scenarios()) {
        SCOPED_TRACE(s.name);
        const RunResult run = simulate(s.name);
        ASSERT_FALSE(run.recording.beats.empty());
        const Beat& intro = run.recording.beats.front();
        EXPECT_TRUE(intro.command.empty()) << "the story opens with a command, not an intro";
        EXPECT_NE(intro.narration.find("efficiency"), std::string::npos) << intro.narration;
        EXPECT_NE(intro.narration.find("correctness"), std::string::npos) << intro.narration;
    }
}

// The watchdog (Redisson's lease of 30 s renewed every 10 s): renewal keeps a job longer
// than the lease safe; a GC pause longer than the lease freezes the watchdog too, and the
// woken client's write lands over the next holder's. Only the store's fencing check stops it.
TEST(GuidePoints, AWatchdogKeepsALongJobSafeButNotAPauseLongerThanTheLease) {
    int renewals = 0;
    const RunResult renewed = simulate("watchdog", {"pause_ms=0"});
    for (const Beat& b : renewed.recording.beats)
        renewals += b.actor == "a" && b.command.find(" 1 lock:") != std::string::npos &&
                    b.narration.find("extends the lease") != std::string::npos;
    EXPECT_EQ(renewals, 5);  // at 10, 20, 30, 40 and 50 s of a 60 s job
    EXPECT_EQ(renewed.outcome.overlappingHolds, 0);
    EXPECT_EQ(renewed.outcome.staleWritesAccepted, 0);
    // b asks at 50 s, past the first lease's end: refused, the lease was renewed.
    EXPECT_GE(findBeat(renewed.recording,
                       [](const Beat& b) {
                           return b.actor == "b" && b.time == 50000 &&
                                  b.narration.find("refused") != std::string::npos;
                       }),
              0);
    EXPECT_TRUE(runVerdict(renewed.outcome).starts_with("This run came out correct"))
        << runVerdict(renewed.outcome);

    const RunResult noWatchdog = simulate("watchdog", {"pause_ms=0", "watchdog=0"});
    EXPECT_EQ(noWatchdog.outcome.overlapsAfterLeaseExpired, 1);
    EXPECT_EQ(noWatchdog.outcome.staleWritesAccepted, 1);

    const RunResult paused = simulate("watchdog");  // 40 s pause, 30 s lease
    EXPECT_EQ(paused.outcome.overlapsAfterLeaseExpired, 1);
    EXPECT_EQ(paused.outcome.staleWritesAccepted, 1);
    EXPECT_FALSE(runVerdict(paused.outcome).starts_with("This run came out correct"));
    const RunResult fenced = simulate("watchdog", {"fencing=1"});
    EXPECT_EQ(fenced.outcome.staleWritesAccepted, 0);
    EXPECT_EQ(fenced.outcome.staleWritesRejected, 1);
    // A pause shorter than the lease is covered: the watchdog renews when a wakes.
    const RunResult shortPause = simulate("watchdog", {"pause_ms=15000"});
    EXPECT_EQ(shortPause.outcome.overlappingHolds, 0);
    EXPECT_EQ(shortPause.outcome.staleWritesAccepted, 0);
}
