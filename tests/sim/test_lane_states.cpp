// Every lane's state at a beat comes from one function of the recording (laneStatesAt), so
// the instance lanes and the key lanes cannot contradict each other: checked at every beat
// of every story, and against the simulator's own World at that beat.

#include <gtest/gtest.h>

#include <algorithm>

#include "lockscope/sim/lane_state.h"
#include "lockscope/sim/replay.h"
#include "lockscope/sim/scenario.h"

using namespace lockscope::sim;

namespace {

std::string where(const Replay& replay, int beat) {
    const Beat& b = replay.beats()[beat];
    return replay.scenario().name + " beat " + std::to_string(beat) + " at " +
           formatVirtualTime(b.time) + " (" + b.actor + " " + b.command + ")";
}

const LaneState* keyLaneOf(const Recording& r, const std::vector<LaneState>& states, int node) {
    for (std::size_t i = 0; i < states.size(); ++i)
        if (states[i].kind == LaneKind::RedisKey && r.lanes[i].node == node) return &states[i];
    return nullptr;
}

void expectLanesAgree(Replay& replay, int beat) {
    const Recording& r = replay.recording();
    replay.seek(beat);
    const auto states = laneStatesAtBeat(r, beat);
    ASSERT_EQ(states.size(), r.lanes.size());
    int keyLanes = 0;
    for (const LaneState& s : states) keyLanes += s.kind == LaneKind::RedisKey;
    for (std::size_t i = 0; i < states.size(); ++i) {
        const LaneState& s = states[i];
        const Lane& lane = r.lanes[i];
        if (s.kind == LaneKind::RedisKey) {
            // The key lane says what the simulated Redis node holds at this beat.
            KeyView truth = replay.keyView(lane.node);
            EXPECT_EQ(s.keyExists, truth.exists) << lane.name << ", " << where(replay, beat);
            EXPECT_EQ(s.pttl, truth.pttl) << lane.name << ", " << where(replay, beat);
            EXPECT_EQ(s.holder, truth.holder) << lane.name << ", " << where(replay, beat);
            EXPECT_EQ(s.fence, truth.fence) << lane.name << ", " << where(replay, beat);
            if (!s.holder.empty()) {
                EXPECT_TRUE(s.keyExists) << lane.name;
            }
        }
        if (s.kind != LaneKind::Instance) continue;
        // An instance that holds the lock on a node is the holder the node's key lane names.
        for (int node : s.nodesHeld) {
            const LaneState* key = keyLaneOf(r, states, node);
            ASSERT_NE(key, nullptr) << lane.name << ", " << where(replay, beat);
            EXPECT_EQ(key->holder, lane.name)
                << lane.name << " holds node " << node << ", " << where(replay, beat);
        }
        if (s.instance == InstanceState::HoldsLock) {
            EXPECT_FALSE(s.nodesHeld.empty());
        }
        // "Works, no lock" while a key lane says it holds the lock is the contradiction.
        if (s.instance == InstanceState::WorksWithoutLock) {
            EXPECT_LE(static_cast<int>(s.nodesHeld.size()) * 2, keyLanes)
                << lane.name << ", " << where(replay, beat);
            if (keyLanes == 1) {
                EXPECT_NE(keyLaneOf(r, states, 0)->holder, lane.name)
                    << lane.name << " works without its lock, " << where(replay, beat);
            }
        }
    }
}

}  // namespace

TEST(LaneStates, AllLanesAgreeAtEveryBeatOfEveryStory) {
    for (const Scenario& scenario : scenarios()) {
        SCOPED_TRACE(scenario.name);
        Replay replay(scenario.name);
        ASSERT_FALSE(replay.beats().empty());
        for (int beat = 0; beat < static_cast<int>(replay.beats().size()); ++beat) {
            expectLanesAgree(replay, beat);
            if (::testing::Test::HasFailure()) return;  // the first contradiction says enough
        }
    }
}

TEST(LaneStates, AgreeAfterAForkToo) {
    Replay replay("fixed-report");
    replay.seek(3);
    replay.pauseInstance(replay.instances().front(), 40'000);
    for (int beat = 0; beat < static_cast<int>(replay.beats().size()); ++beat) {
        expectLanesAgree(replay, beat);
        if (::testing::Test::HasFailure()) return;
    }
}

TEST(LaneStates, TheBrokenReportShowsTheLapseAndTheNewHolderTogether) {
    Replay replay("broken-report");
    const Recording& r = replay.recording();
    bool seen = false;
    for (int beat = 0; beat < static_cast<int>(r.beats.size()) && !seen; ++beat) {
        auto states = laneStatesAtBeat(r, beat);
        const LaneState* key = keyLaneOf(r, states, 0);
        for (std::size_t i = 0; i < states.size(); ++i)
            if (states[i].instance == InstanceState::WorksWithoutLock && key->keyExists &&
                !key->holder.empty() && key->holder != r.lanes[i].name)
                seen = true;
    }
    EXPECT_TRUE(seen) << "one client works on without its lock while the other holds it";
}

TEST(LaneStates, BeforeTheFirstBeatNothingHasHappened) {
    Replay replay("broken-report");
    for (const LaneState& s : laneStatesAtBeat(replay.recording(), -1)) {
        EXPECT_EQ(s.instance, InstanceState::Idle);
        EXPECT_FALSE(s.keyExists);
        EXPECT_TRUE(s.nodesHeld.empty());
    }
}
