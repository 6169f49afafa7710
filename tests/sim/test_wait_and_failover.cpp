// WAIT numreplicas timeout against the replication model, and the failover story: a lock
// the primary acknowledged is lost when an unreplicated replica is promoted; WAIT 1 50
// narrows that window but does not close it.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "lockscope/errors.h"
#include "lockscope/sim/live_redis_backend.h"
#include "lockscope/sim/live_replay.h"
#include "lockscope/sim/replay.h"
#include "lockscope/sim/scenario.h"
#include "lockscope/sim/simulator.h"
#include "lockscope/sim/step_context.h"
#include "redis_fixture.h"
#include "sim_test_support.h"

using namespace lockscope::sim;
using namespace lockscope::sim::testing;

namespace {

// Writes the key on r1 at 0 (unless `write` is false), then WAIT numReplicas timeout, and
// records what WAIT said and when it returned.
class WaitingClient final : public ClonableActor<WaitingClient> {
  public:
    WaitingClient(LaneId lane, int numReplicas, VirtualMs timeout, bool write)
        : ClonableActor("client", lane), n_(numReplicas), timeout_(timeout), write_(write) {}
    void step(StepContext& context) override {
        if (!waited_) {
            if (write_) context.send(RedisCommand::set("lock:r", "v", true, TtlUnit::Millis, 9000));
            waited_ = true;
            context.waitForReplicas(0, n_, timeout_);
            return;
        }
        reply = context.waitReply();
        returnedAt = context.now();
        context.stop();
    }
    std::int64_t reply = -1;
    VirtualMs returnedAt = -1;

  private:
    int n_;
    VirtualMs timeout_;
    bool write_;
    bool waited_ = false;
};

struct WaitRun {
    std::int64_t reply;
    VirtualMs returnedAt;
    Recording recording;
};

// r1 with replicas r2 (20 ms behind) and r3 (500 ms behind), and optionally a failover.
WaitRun runWait(int numReplicas, VirtualMs timeout, bool write = true,
                std::optional<FailoverFault> failover = std::nullopt, int replicas = 2,
                VirtualMs lag = 20) {
    World world;
    WaitRun run{};
    world.lockKey = "lock:r";
    world.nodes.resize(static_cast<std::size_t>(replicas) + 1);
    for (int n = 0; n <= replicas; ++n) {
        world.node(n).name = "r" + std::to_string(n + 1);
        world.node(n).keyLane = addLane(run.recording, LaneKind::RedisKey, world.node(n).name, "");
    }
    if (replicas >= 1) world.replication.push_back({0, 1, lag});
    if (replicas >= 2) world.replication.push_back({0, 2, 500});
    if (failover) world.faults.failovers.push_back(*failover);
    LaneId lane = addLane(run.recording, LaneKind::Instance, "client", "");
    addActor(world, std::make_unique<WaitingClient>(lane, numReplicas, timeout, write), 0);
    Simulator::runToEnd(world, run.recording);
    const auto& client = static_cast<const WaitingClient&>(*world.actor("client"));
    run.reply = client.reply;
    run.returnedAt = client.returnedAt;
    return run;
}

}  // namespace

TEST(Wait, ReturnsAsSoonAsEnoughReplicasAcknowledged) {
    WaitRun one = runWait(1, 50);
    EXPECT_EQ(one.reply, 1);
    EXPECT_EQ(one.returnedAt, 20);  // r2's copy arrives 20 ms after the write
    int beat = findBeat(one.recording, [](const Beat& b) { return b.command == "r1> WAIT 1 50"; });
    ASSERT_GE(beat, 0);
    EXPECT_EQ(one.recording.beats[beat].reply, "(integer) 1");
    EXPECT_EQ(one.recording.beats[beat].time, 20);

    WaitRun both = runWait(2, 1000);
    EXPECT_EQ(both.reply, 2);
    EXPECT_EQ(both.returnedAt, 500);
}

TEST(Wait, TimesOutWithTheReplicasThatDidAcknowledge) {
    WaitRun run = runWait(2, 100);
    EXPECT_EQ(run.reply, 1);  // r2 at 20 ms; r3 would need 500 ms
    EXPECT_EQ(run.returnedAt, 100);
    WaitRun none = runWait(1, 10);
    EXPECT_EQ(none.reply, 0);
    EXPECT_EQ(none.returnedAt, 10);
}

TEST(Wait, NothingInFlightIsAcknowledgedAtOnceAndNoReplicasMeansZero) {
    WaitRun idle = runWait(2, 100, false);
    EXPECT_EQ(idle.reply, 2);
    EXPECT_EQ(idle.returnedAt, 0);
    WaitRun alone = runWait(1, 100, true, std::nullopt, 0);
    EXPECT_EQ(alone.reply, 0);
    EXPECT_EQ(alone.returnedAt, 100);
}

TEST(Wait, AReplicaPromotedBeforeItGotTheWriteNeverAcknowledges) {
    WaitRun run = runWait(1, 50, true, FailoverFault{10, 1});
    EXPECT_EQ(run.reply, 0);  // r2 was promoted at 10 ms, r3's stream from r1 ended
    EXPECT_EQ(run.returnedAt, 50);
}

TEST(Failover, WithoutWaitTwoClientsHoldTheLock) {
    RunResult run = simulate("failover");
    EXPECT_EQ(run.outcome.overlappingHolds, 1);
    EXPECT_EQ(run.outcome.waitsShort, 0);
    const Recording& r = run.recording;
    int second = findBeat(r, [](const Beat& b) { return sends(b, "client2", "r2> SET"); });
    ASSERT_GE(second, 0);
    EXPECT_EQ(r.beats[second].reply, "OK");
    EXPECT_NE(r.beats[second].narration.find("two clients hold it at once"), std::string::npos);
    ASSERT_TRUE(r.beats[second].predict.has_value());
    EXPECT_NE(r.beats[second].predict->answer.find("never received"), std::string::npos);
}

TEST(Failover, ReplicationBeforeTheFailoverKeepsOneHolder) {
    RunResult run = simulate("failover", {"failover_at_ms=100"});
    EXPECT_EQ(run.outcome.overlappingHolds, 0);
    int second = findBeat(run.recording, [](const Beat& b) { return sends(b, "client2", "r2>"); });
    ASSERT_GE(second, 0);
    EXPECT_EQ(run.recording.beats[second].reply, "(nil)");
}

TEST(Failover, WaitNarrowsTheWindow) {
    RunResult run = simulate("failover", {"wait=1"});
    EXPECT_EQ(run.outcome.overlappingHolds, 0);
    EXPECT_EQ(run.outcome.waitsShort, 1);
    int wait =
        findBeat(run.recording, [](const Beat& b) { return sends(b, "client1", "r1> WAIT"); });
    ASSERT_GE(wait, 0);
    EXPECT_EQ(run.recording.beats[wait].reply, "(integer) 0");
    EXPECT_EQ(run.recording.beats[wait].time, 50);
}

TEST(Failover, WaitDoesNotCloseTheWindow) {
    // WAIT 1 50 says yes (r2 acknowledged at 20 ms), then the failover promotes r3.
    RunResult run = simulate("failover", {"wait=1", "failover_at_ms=100", "promote=3"});
    EXPECT_EQ(run.outcome.overlappingHolds, 1);
    EXPECT_EQ(run.outcome.waitsShort, 0);
    int wait =
        findBeat(run.recording, [](const Beat& b) { return sends(b, "client1", "r1> WAIT"); });
    ASSERT_GE(wait, 0);
    EXPECT_EQ(run.recording.beats[wait].reply, "(integer) 1");
    // Promoting the replica that acknowledged keeps the lock.
    RunResult safe = simulate("failover", {"wait=1", "failover_at_ms=100", "promote=2"});
    EXPECT_EQ(safe.outcome.overlappingHolds, 0);
}

TEST(SeatHold, AFailoverInABusySaleSellsSeatsTwice) {
    RunResult run = simulate("seat-hold");
    EXPECT_EQ(run.outcome.seatsSoldTwice, 2);
    EXPECT_EQ(run.outcome.bookingsConfirmed, 5);
    EXPECT_EQ(run.outcome.bookingsRefused, 0);
    EXPECT_EQ(run.outcome.overlappingHolds, 2);
    int twice = findBeat(run.recording, [](const Beat& b) {
        return b.narration.find("sold twice") != std::string::npos && b.predict;
    });
    ASSERT_GE(twice, 0);
    const Prompt& p = *run.recording.beats[twice].predict;
    EXPECT_NE(p.question.find("SET seat:{event}:{seat} <userId> NX PX 600000"), std::string::npos);
    EXPECT_NE(p.answer.find("replication is asynchronous"), std::string::npos);
    EXPECT_NE(p.answer.find("unique constraint on (event_id, seat_id)"), std::string::npos);
}

TEST(SeatHold, TheDatabaseAsAuthorityRefusesTheSecondConfirmation) {
    RunResult run = simulate("seat-hold", {"fix=1"});
    EXPECT_EQ(run.outcome.seatsSoldTwice, 0);
    EXPECT_EQ(run.outcome.bookingsConfirmed, 3);
    EXPECT_EQ(run.outcome.bookingsRefused, 2);
    int refused = findBeat(run.recording, [](const Beat& b) {
        return b.reply.find("duplicate key value violates unique constraint") != std::string::npos;
    });
    ASSERT_GE(refused, 0);
    EXPECT_NE(run.recording.beats[refused].narration.find("fails cleanly"), std::string::npos);
}

TEST(SeatHold, HoldsThatReachedTheReplicaSurviveTheFailover) {
    RunResult late = simulate("seat-hold", {"failover_at_ms=1000"});
    EXPECT_EQ(late.outcome.seatsSoldTwice, 0);
    EXPECT_EQ(late.outcome.bookingsConfirmed, 3);
    RunResult fast = simulate("seat-hold", {"lag_ms=15"});
    EXPECT_EQ(fast.outcome.seatsSoldTwice, 1);  // only u2's hold (20 ms) was still in flight
    RunResult more = simulate("seat-hold", {"buyers=9"});
    EXPECT_EQ(more.outcome.seatsSoldTwice, 2);
    EXPECT_EQ(more.outcome.bookingsConfirmed, 5);
}

TEST(MultiServerScenarios, RunLiveAndSayWhatTheirLiveModeEmulates) {
    for (const char* name : {"failover", "seat-hold", "redlock-gc-pause", "redlock-clock-jump"}) {
        const Scenario& scenario = scenarioNamed(name);
        EXPECT_TRUE(scenario.liveUnavailable.empty()) << name;
        EXPECT_FALSE(scenario.liveNotes.empty()) << name;
        // Their tables count clients holding at once, not report emails.
        const auto& rows = comparisonRowsFor(scenario);
        auto labelled = [&](const std::string& label) {
            return std::any_of(rows.begin(), rows.end(),
                               [&](const ComparisonRow& r) { return r.label == label; });
        };
        EXPECT_TRUE(labelled("Times two clients held it at once")) << name;
        EXPECT_FALSE(labelled("Emails sent")) << name;
    }
    // The one fault no process can suffer from outside is called an emulation.
    EXPECT_NE(scenarioNamed("redlock-clock-jump").liveNotes.find("EMULATED"), std::string::npos);
    EXPECT_EQ(comparisonRowsFor(scenarioNamed("broken-report")).front().label, "Emails sent");
}

TEST(MultiServerScenarios, AStoryLiveModeCannotRunIsRefusedWithItsReason) {
    Scenario scenario = scenarioNamed("failover");
    scenario.liveUnavailable = "it needs a network partition between two hosts.";
    LiveOptions options;
    options.endpoint.port = 1;  // never reached: the refusal comes first
    try {
        runLive(scenario, scenario.defaults(), 1, options);
        ADD_FAILURE() << "expected InvalidArgumentError";
    } catch (const lockscope::InvalidArgumentError& e) {
        EXPECT_NE(std::string(e.what()).find("not available: it needs a network partition"),
                  std::string::npos)
            << e.what();
    }
}

// The model's WAIT against real Redis: a primary with one replica started by REPLICAOF.
// A replica that is up acknowledges at once (the model: a lag under the timeout); a paused
// replica (SIGSTOP: the write sits unread) cannot, and WAIT returns 0 when the timeout runs
// out (the model: a lag beyond the timeout).
class WaitLive : public lockscope::testing::RedisTest {};

TEST_F(WaitLive, RealWaitTellsTheSameStoryAsTheModel) {
    lockscope::LocalRedisServerOptions options;
    options.configLines = {"replicaof 127.0.0.1 " + std::to_string(server().port())};
    lockscope::LocalRedisServer replica(options);
    lockscope::Connection replicaConnection = lockscope::Connection::open(replica.endpoint());
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::string(replicaConnection.command({"INFO", "replication"}).text())
               .find("master_link_status:up") == std::string::npos) {
        ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the replica never linked up";
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    lockscope::Connection primary = connect();
    LiveRedisBackend live(primary, 1000);  // real time: 1 virtual ms = 1 ms
    auto set = RedisCommand::set("lock:w", "v1", true, TtlUnit::Millis, 10000);

    EXPECT_TRUE(live.execute(set, 0).isOk());
    EXPECT_EQ(live.execute(RedisCommand::wait(1, 1000), 0), CommandReply::number(1));
    EXPECT_EQ(runWait(1, 1000, true, std::nullopt, 1, 1).reply, 1);

    replica.pause();
    EXPECT_TRUE(live.execute(RedisCommand::del("lock:w"), 0) == CommandReply::number(1));
    auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(live.execute(RedisCommand::wait(1, 50), 0), CommandReply::number(0));
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(50));
    replica.resume();
    WaitRun model = runWait(1, 50, true, std::nullopt, 1, 60000);
    EXPECT_EQ(model.reply, 0);
    EXPECT_EQ(model.returnedAt, 50);
}

TEST(Failover, ForksWhileAClientIsBlockedInWait) {
    const Scenario& scenario = scenarioNamed("failover");
    ScenarioParams params = scenario.defaults();
    params.set("wait", 1);
    lockscope::sim::Replay replay("failover", params, 4);
    int set =
        findBeat(replay.recording(), [](const Beat& b) { return sends(b, "client1", "r1> SET"); });
    ASSERT_GE(set, 0);
    replay.seek(set);
    replay.pauseInstance("client1", 2000);  // frozen inside its WAIT
    int wait =
        findBeat(replay.recording(), [](const Beat& b) { return sends(b, "client1", "r1> WAIT"); });
    ASSERT_GE(wait, 0);
    EXPECT_EQ(replay.recording().beats[wait].reply, "(integer) 0");
    // It gives the lock back where the primary is now: r2, promoted while it waited.
    int giveBack = findBeat(replay.recording(),
                            [](const Beat& b) { return sends(b, "client1", "r2> EVALSHA"); });
    ASSERT_GE(giveBack, 0);
    EXPECT_GE(replay.recording().beats[giveBack].time, 2000);  // it acts once the pause ends
    EXPECT_EQ(replay.outcome().overlappingHolds, 0);
    replay.crashInstance("client2");
    EXPECT_EQ(replay.outcome().overlappingHolds, 0);
}
