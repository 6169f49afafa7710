// Every lane's state at a beat comes from one function of the recording (laneStatesAt), so
// the instance lanes and the key lanes cannot contradict each other: checked at every beat
// of every story, and against the simulator's own World at that beat.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>

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

// Whether the simulated Redis node holds key for actor at the replay's current beat.
bool heldOn(const Replay& replay, const std::string& actor, const std::string& key, int node) {
    const Holding* h = replay.state().node(node).currentHolding(key);
    return h && h->holder == actor && replay.state().node(node).redis.peek(key, replay.state().now);
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
        // An instance that holds the lock key on a node is the holder the node's key lane
        // names; a key no lane draws (a seat's hold) is held in the simulated Redis itself.
        const std::string& lockKey = replay.state().lockKey;
        if (s.keysHeld == std::vector<std::string>{lockKey}) {
            for (int node : s.nodesHeld) {
                const LaneState* key = keyLaneOf(r, states, node);
                ASSERT_NE(key, nullptr) << lane.name << ", " << where(replay, beat);
                EXPECT_EQ(key->holder, lane.name)
                    << lane.name << " holds node " << node << ", " << where(replay, beat);
            }
        }
        for (const std::string& k : s.keysHeld) {
            if (k == lockKey) continue;
            const bool somewhere = std::any_of(s.nodesHeld.begin(), s.nodesHeld.end(), [&](int n) {
                return heldOn(replay, lane.name, k, n);
            });
            EXPECT_TRUE(somewhere) << lane.name << " holds " << k << ", " << where(replay, beat);
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

// seat-hold: every buyer's lane says what its own seat's key says, not only A1's buyers.
// With the defaults u2 holds A2 on r1 from 0.020s, and u5 holds A2 on r2 after the failover
// lost u2's hold there; u3 holds A3 on r2 until it releases it.
TEST(LaneStates, SeatHoldShowsEveryBuyersOwnSeat) {
    Replay replay("seat-hold");
    const Recording& r = replay.recording();
    std::map<std::string, bool> seenHolding;
    for (int beat = 0; beat < static_cast<int>(r.beats.size()); ++beat) {
        replay.seek(beat);
        const auto states = laneStatesAtBeat(r, beat);
        for (std::size_t i = 0; i < states.size(); ++i) {
            const Lane& lane = r.lanes[i];
            if (lane.kind != LaneKind::Instance) continue;
            const std::string seat = lane.subtitle.substr(lane.subtitle.rfind(' ') + 1);
            const std::string key = "seat:{gig}:" + seat;
            bool heldInRedis = false;
            for (int n = 0; n < static_cast<int>(replay.state().nodes.size()); ++n)
                heldInRedis = heldInRedis || heldOn(replay, lane.name, key, n);
            // The buyer's lane holds exactly when the simulated Redis holds its seat for it.
            EXPECT_EQ(states[i].instance == InstanceState::HoldsLock, heldInRedis)
                << lane.name << " (" << key << "), " << where(replay, beat);
            if (heldInRedis) {
                EXPECT_EQ(states[i].keysHeld, std::vector<std::string>{key})
                    << lane.name << ", " << where(replay, beat);
                seenHolding[lane.name] = true;
            }
        }
    }
    // Every buyer who got a hold is seen holding it (u6 was refused: A3 was taken).
    for (const char* buyer : {"u1", "u2", "u3", "u4", "u5"})
        EXPECT_TRUE(seenHolding[buyer]) << buyer << " never shown holding its seat";
    EXPECT_FALSE(seenHolding["u6"]);
}

// The beat where u2 has just taken seat A2: its lane says it holds it, like u1's says A1.
TEST(LaneStates, SeatHoldBuyerOfA2HoldsItAtItsBeat) {
    Replay replay("seat-hold");
    const Recording& r = replay.recording();
    int beat = -1;
    for (const Beat& b : r.beats)
        if (b.actor == "u2" && b.command.find("SET seat:{gig}:A2 u2 NX") != std::string::npos)
            beat = b.index;
    ASSERT_GE(beat, 0);
    const auto states = laneStatesAtBeat(r, beat);
    const LaneState& u2 = states[static_cast<std::size_t>(r.laneNamed("u2")->id)];
    EXPECT_EQ(u2.instance, InstanceState::HoldsLock);
    EXPECT_EQ(u2.keysHeld, std::vector<std::string>{"seat:{gig}:A2"});
    EXPECT_EQ(u2.nodesHeld, std::vector<int>{0});  // on r1, the primary before the failover
}
