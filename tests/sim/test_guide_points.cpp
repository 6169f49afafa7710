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
