// Several Redis nodes in one World (the ground for Redlock and failover stories): each has
// its own keyspace, clock, key lane, ownership history and PTTL curve.

#include <gtest/gtest.h>

#include "lockscope/sim/scenario.h"
#include "lockscope/sim/simulator.h"
#include "lockscope/sim/step_context.h"
#include "sim_test_support.h"

using namespace lockscope::sim;
using namespace lockscope::sim::testing;

namespace {

// Tries SET NX PX on every node at its wake time.
class GreedyClient final : public ClonableActor<GreedyClient> {
  public:
    GreedyClient(std::string name, LaneId lane, int nodes)
        : ClonableActor(std::move(name), lane), nodes_(nodes) {}
    void step(StepContext& context) override {
        for (int n = 0; n < nodes_; ++n) {
            RedisCommand set = RedisCommand::set("lock:r", name(), true, TtlUnit::Millis, 1000);
            set.node = n;
            context.send(set);
        }
        context.stop();
    }

  private:
    int nodes_;
};

}  // namespace

TEST(Nodes, EachNodeKeepsItsOwnKeysClockAndLane) {
    World world;
    Recording recording;
    world.lockKey = "lock:r";
    world.nodes.resize(2);
    world.node(0).name = "r1";
    world.node(1).name = "r2";
    LaneId one = addLane(recording, LaneKind::Instance, "one", "client");
    LaneId two = addLane(recording, LaneKind::Instance, "two", "client");
    world.node(0).keyLane = addLane(recording, LaneKind::RedisKey, "r1 lock:r", "Redis key");
    world.node(1).keyLane = addLane(recording, LaneKind::RedisKey, "r2 lock:r", "Redis key");
    addActor(world, std::make_unique<GreedyClient>("one", one, 2), 0);
    addActor(world, std::make_unique<GreedyClient>("two", two, 2), 500);
    ASSERT_TRUE(Simulator::advance(world, recording));  // one locks both at t = 0
    world.node(1).redis.setClockOffset(800);            // then r2's clock jumps 800 ms
    Simulator::runToEnd(world, recording);

    const auto& beats = recording.beats;
    ASSERT_GE(beats.size(), 4u);
    EXPECT_EQ(beats[0].command, "r1> SET lock:r one NX PX 1000");
    EXPECT_EQ(beats[1].command, "r2> SET lock:r one NX PX 1000");
    // r2's key expires at 200 ms by the simulation's clock; two then wins r2, not r1.
    int r2Expiry = findBeat(recording, [&](const Beat& b) { return b.actor == "r2"; });
    ASSERT_GE(r2Expiry, 0);
    EXPECT_EQ(beats[r2Expiry].time, 201);
    EXPECT_EQ(beats[r2Expiry].lane, world.node(1).keyLane);
    int twoOnR1 = findBeat(recording, [](const Beat& b) { return sends(b, "two", "r1>"); });
    int twoOnR2 = findBeat(recording, [](const Beat& b) { return sends(b, "two", "r2>"); });
    EXPECT_EQ(beats[twoOnR1].reply, "(nil)");
    EXPECT_EQ(beats[twoOnR2].reply, "OK");
    EXPECT_EQ(world.node(0).holdings.size(), 1u);
    EXPECT_EQ(world.node(1).holdings.size(), 2u);
    EXPECT_EQ(world.node(1).holdings.back().holder, "two");

    int ownershipOnR2 = 0, samplesR2 = 0;
    for (const auto& i : recording.intervals)
        ownershipOnR2 += i.kind == IntervalKind::Ownership && i.lane == world.node(1).keyLane;
    for (const auto& s : recording.pttl) samplesR2 += s.node == 1;
    EXPECT_EQ(ownershipOnR2, 2);
    EXPECT_GT(samplesR2, 0);
}

namespace {

// Takes the lock on whichever node is the primary at its wake time.
class PrimaryClient final : public ClonableActor<PrimaryClient> {
  public:
    using ClonableActor::ClonableActor;
    void step(StepContext& context) override {
        RedisCommand set = RedisCommand::set("lock:r", name(), true, TtlUnit::Millis, 10000);
        set.node = context.world().primary;
        context.send(set);
        context.stop();
    }
};

// A primary r1 with an asynchronous replica r2 (lag ms behind), client one locking at 0,
// a failover at 200 ms, and client two locking at 300 ms on the new primary.
World failoverWorld(VirtualMs lag, Recording& recording) {
    World world;
    world.lockKey = "lock:r";
    world.nodes.resize(2);
    world.node(0).name = "r1";
    world.node(1).name = "r2";
    world.replication.push_back({0, 1, lag});
    world.faults.failovers.push_back({200, 1});
    world.node(0).keyLane = addLane(recording, LaneKind::RedisKey, "r1 lock:r", "primary");
    world.node(1).keyLane = addLane(recording, LaneKind::RedisKey, "r2 lock:r", "replica");
    addActor(
        world,
        std::make_unique<PrimaryClient>("one", addLane(recording, LaneKind::Instance, "one", "")),
        0);
    addActor(
        world,
        std::make_unique<PrimaryClient>("two", addLane(recording, LaneKind::Instance, "two", "")),
        300);
    return world;
}

// Runs what is due up to t (the locks' 10 s TTL has not run out yet).
void runUntil(World& world, Recording& recording, VirtualMs t) {
    while (Simulator::nextTime(world) && *Simulator::nextTime(world) <= t)
        Simulator::advance(world, recording);
}

}  // namespace

TEST(Nodes, FailoverBeforeReplicationLetsASecondClientIn) {
    Recording recording;
    World world = failoverWorld(500, recording);  // the write is still in flight at 200 ms
    runUntil(world, recording, 1000);
    int failover = findBeat(recording, [](const Beat& b) { return b.actor == "r2"; });
    ASSERT_GE(failover, 0);
    EXPECT_NE(recording.beats[failover].narration.find("1 write(s)"), std::string::npos)
        << recording.beats[failover].narration;
    int two = findBeat(recording, [](const Beat& b) { return sends(b, "two", "r2>"); });
    ASSERT_GE(two, 0);
    EXPECT_EQ(recording.beats[two].reply, "OK");  // both clients now believe they hold it
    ASSERT_NE(world.currentHolding(0), nullptr);
    ASSERT_NE(world.currentHolding(1), nullptr);
    EXPECT_EQ(world.currentHolding(0)->holder, "one");
    EXPECT_EQ(world.currentHolding(1)->holder, "two");
}

TEST(Nodes, ReplicationThatArrivesBeforeTheFailoverKeepsTheLock) {
    Recording recording;
    World world = failoverWorld(100, recording);  // replicated at 100 ms, failover at 200 ms
    runUntil(world, recording, 1000);
    int two = findBeat(recording, [](const Beat& b) { return sends(b, "two", "r2>"); });
    ASSERT_GE(two, 0);
    EXPECT_EQ(recording.beats[two].reply, "(nil)");
    ASSERT_NE(world.currentHolding(1), nullptr);
    EXPECT_EQ(world.currentHolding(1)->holder, "one");  // the replica knows who set it
    // The replicated key keeps its absolute expiry: 10 s after the primary's SET.
    EXPECT_EQ(world.node(1).redis.pttl("lock:r", 1000), 9000);
}
