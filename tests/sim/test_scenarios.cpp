// Each scenario's outcome as the rules compute it, with the defaults and with parameters
// that change the story (so a hard-coded outcome would fail).

#include <gtest/gtest.h>

#include "lockscope/sim/live_replay.h"
#include "sim_test_support.h"

using namespace lockscope::sim;
using namespace lockscope::sim::testing;

TEST(BrokenReport, DefaultNightTellsTheGuidesStory) {
    RunResult run = simulate("broken-report");
    const OutcomeSummary& o = run.outcome;
    EXPECT_EQ(o.emailsSent, 3);
    EXPECT_EQ(o.runsStarted, 3);
    EXPECT_EQ(o.duplicateRuns, 2);
    EXPECT_EQ(o.foreignDeletions, 2);  // A's DEL removes B's lock, B's DEL removes C's
    EXPECT_GT(o.corruptedWrites, 0);
    EXPECT_EQ(o.corruptedReportsEmailed, 2);
    EXPECT_EQ(o.staleWritesRejected, 0);

    const Recording& r = run.recording;
    // The lock expires under A's job (A is still running at 10 s)...
    int expiry = findBeat(r, [](const Beat& b) { return b.actor == "redis"; });
    ASSERT_GE(expiry, 0);
    EXPECT_EQ(r.beats[expiry].time, 10001);  // Redis 7: gone the ms after its deadline
    EXPECT_NE(r.beats[expiry].narration.find("still running"), std::string::npos);
    // ...B takes it while A works, A's DEL removes B's lock, and a third run starts.
    int bTakes = findBeat(r, [](const Beat& b) { return sends(b, "B", "SET") && b.reply == "OK"; });
    int aDeletes = findBeat(r, [](const Beat& b) { return sends(b, "A", "DEL"); });
    int cTakes = findBeat(r, [](const Beat& b) { return sends(b, "C", "SET") && b.reply == "OK"; });
    ASSERT_GE(bTakes, 0);
    ASSERT_GE(aDeletes, 0);
    ASSERT_GE(cTakes, 0);
    EXPECT_LT(expiry, bTakes);
    EXPECT_LT(bTakes, aDeletes);
    EXPECT_LT(aDeletes, cTakes);
    EXPECT_EQ(r.beats[aDeletes].reply, "(integer) 1");
    EXPECT_NE(r.beats[aDeletes].narration.find("deleted B's lock"), std::string::npos);
    ASSERT_TRUE(r.beats[aDeletes].predict.has_value());
    // Two runs wrote the output file at the same time.
    int interleaved = findBeat(
        r, [](const Beat& b) { return b.narration.find("corrupted write") != std::string::npos; });
    EXPECT_GE(interleaved, 0);
}

TEST(BrokenReport, ALongEnoughTtlStopsTheOverlapButNotTheLateRerun) {
    // EX 60 outlasts the 40 s job: B is refused at 36 s, A deletes its own lock; C, firing
    // at 72 s, finds the key free and runs the job again (the broken code has no "done").
    RunResult run = simulate("broken-report", {"lock_ttl_s=60"});
    EXPECT_EQ(run.outcome.emailsSent, 2);
    EXPECT_EQ(run.outcome.runsRefused, 1);
    EXPECT_EQ(run.outcome.foreignDeletions, 0);
    EXPECT_EQ(run.outcome.corruptedWrites, 0);
    EXPECT_EQ(run.outcome.duplicateRuns, 1);
}

TEST(BrokenReport, AGoodNightWithOneInstanceSendsOneEmail) {
    RunResult run = simulate("broken-report", {"instances=1", "db_slow_until_ms=0"});
    EXPECT_EQ(run.outcome.emailsSent, 1);
    EXPECT_EQ(run.outcome.duplicateRuns, 0);
    EXPECT_TRUE(run.outcome.outputFileIntact);
    EXPECT_EQ(run.recording.beats.back().time, 6000);  // 8 chunks of 750 ms, then DEL
}

TEST(FixedReport, PausedInstancesStaleWriteIsRejected) {
    RunResult run = simulate("fixed-report");
    const OutcomeSummary& o = run.outcome;
    EXPECT_EQ(o.emailsSent, 1);
    EXPECT_EQ(o.emailsSuppressed, 1);
    EXPECT_EQ(o.corruptedWrites, 0);
    EXPECT_EQ(o.staleWritesRejected, 1);
    EXPECT_EQ(o.staleWritesAccepted, 0);
    EXPECT_EQ(o.foreignDeletions, 0);
    EXPECT_EQ(o.runsRefused, 1);  // B, while A renewed
    const Recording& r = run.recording;
    int rejected = findBeat(r, [](const Beat& b) { return b.reply == "0 rows"; });
    ASSERT_GE(rejected, 0);
    EXPECT_EQ(r.beats[rejected].actor, "A");
    EXPECT_EQ(r.beats[rejected].time, 85500);  // when A's 45 s pause ends
    EXPECT_NE(r.beats[rejected].command.find("fence < 1"), std::string::npos);
    EXPECT_EQ(countEvents(r, EventKind::FencedWriteAccepted), 1);
}

TEST(FixedReport, WithoutThePauseNothingIsStaleAndTheLateRerunIsHarmless) {
    RunResult run = simulate("fixed-report", {"pause_instance=0"});
    EXPECT_EQ(run.outcome.emailsSent, 1);
    EXPECT_EQ(run.outcome.staleWritesRejected, 0);
    EXPECT_EQ(countEvents(run.recording, EventKind::FencedWriteAccepted), 2);  // fences 1, 2
}

TEST(FixedReport, AShortPauseIsBridgedByTheLease) {
    // 20 s frozen with 29.5 s of lease left: nobody else gets in, A saves normally.
    RunResult run = simulate("fixed-report", {"pause_ms=20000"});
    EXPECT_EQ(run.outcome.staleWritesRejected, 0);
    EXPECT_EQ(run.outcome.leaseLapses, 0);
    EXPECT_EQ(run.outcome.emailsSent, 1);
}

TEST(ExpiryRace, PrintsTheGuidesLines) {
    RunResult run = simulate("expiry-race");
    EXPECT_EQ(run.outcome.printed,
              (std::vector<std::string>{"True 1", "False", "True 2", "False False", "True"}));
}

TEST(ExpiryRace, SleepingLessThanTheTtlChangesEveryLine) {
    RunResult run = simulate("expiry-race", {"sleep_ms=100"});
    // b is still refused after the sleep; a can extend and release its own lock.
    EXPECT_EQ(run.outcome.printed,
              (std::vector<std::string>{"True 1", "False", "False None", "True True", "False"}));
}

TEST(SetnxExpireCrash, OrphanBlocksEveryRunUntilASafeRelease) {
    RunResult run = simulate("setnx-expire-crash");
    const OutcomeSummary& o = run.outcome;
    EXPECT_EQ(o.runsCrashed, 1);
    EXPECT_EQ(o.runsRefused, 2);  // B and C
    EXPECT_EQ(o.orphansReleased, 1);
    EXPECT_EQ(o.foreignDeletions, 0);
    EXPECT_EQ(o.emailsSent, 1);  // the rerun after the release
    const Recording& r = run.recording;
    int pttl = findBeat(r, [](const Beat& b) { return sends(b, "operator", "PTTL"); });
    ASSERT_GE(pttl, 0);
    EXPECT_EQ(r.beats[pttl].reply, "(integer) -1");
    bool noTtlBand = false;
    for (const auto& i : r.intervals)
        noTtlBand |= i.kind == IntervalKind::NoTtl && i.from == 0 && i.to == 91000;
    EXPECT_TRUE(noTtlBand);
}

TEST(SetnxExpireCrash, WithoutAnOperatorNothingEverRuns) {
    RunResult run = simulate("setnx-expire-crash", {"operator_at_ms=0"});
    EXPECT_EQ(run.outcome.emailsSent, 0);
    EXPECT_EQ(run.outcome.runsRefused, 2);
}

TEST(SetnxExpireCrash, NoCrashNoOrphan) {
    RunResult run = simulate("setnx-expire-crash", {"crash_instance=0"});
    EXPECT_EQ(run.outcome.orphansReleased, 0);
    EXPECT_EQ(run.outcome.runsCrashed, 0);
    EXPECT_GE(run.outcome.emailsSent, 1);
}

TEST(Timeline, LanesIntervalsAndPttlForThePanel) {
    RunResult run = simulate("fixed-report");
    const Recording& r = run.recording;
    ASSERT_NE(r.laneNamed("A"), nullptr);
    ASSERT_NE(r.laneNamed("lock:{report:daily}"), nullptr);
    ASSERT_NE(r.laneNamed("report.csv"), nullptr);
    ASSERT_NE(r.laneNamed("finance"), nullptr);
    ASSERT_NE(r.laneNamed("reports.db"), nullptr);
    LaneId a = r.laneNamed("A")->id, key = r.laneNamed("lock:{report:daily}")->id;
    bool pause = false, lapse = false, ownershipA = false;
    for (const auto& i : r.intervals) {
        pause |= i.lane == a && i.kind == IntervalKind::Pause && i.from == 40500 && i.to == 85500;
        lapse |= i.lane == a && i.kind == IntervalKind::LeaseLapsed && i.from == 70001;
        ownershipA |= i.lane == key && i.kind == IntervalKind::Ownership && i.fence == 1 &&
                      i.from == 0 && i.to == 70001;  // deadline 70000, gone at 70001
    }
    EXPECT_TRUE(pause);
    EXPECT_TRUE(lapse);
    EXPECT_TRUE(ownershipA);
    // The PTTL curve renews to 30 s at each extend and reaches 0 when the key expires.
    ASSERT_FALSE(r.pttl.empty());
    bool renewed = false, hitZero = false;
    for (std::size_t i = 1; i < r.pttl.size(); ++i) {
        renewed |=
            r.pttl[i].time == 35000 && r.pttl[i].pttl == 30000 && r.pttl[i - 1].pttl == 25000;
        hitZero |= r.pttl[i].time == 70000 && r.pttl[i].pttl == 0;
    }
    EXPECT_TRUE(renewed);
    EXPECT_TRUE(hitZero);
    for (const auto& e : r.events) ASSERT_NE(r.lane(e.lane), nullptr) << e.index;
    for (std::size_t i = 1; i < r.events.size(); ++i)
        ASSERT_LE(r.events[i - 1].time, r.events[i].time);
}
