// Issue 34, items 1 and 2: one definition of a stale write (lockscope/sim/write_order.h), the
// one DESIGN.md gives: accepted after a write of a newer holder (what fencing prevents). A
// write after the writer's lease ended with no newer holder's write is a late write, a
// separate and milder count. The replay's verdict, the outcome table and --explore all read
// it; torture's checker judges by the same class (tests/torture/test_checker.cpp).

#include <gtest/gtest.h>

#include "lockscope/sim/explorer.h"
#include "lockscope/sim/run_verdict.h"
#include "lockscope/sim/scenario_file.h"
#include "lockscope/sim/write_order.h"
#include "sim_test_support.h"

using namespace lockscope::sim;
using namespace lockscope::sim::testing;

namespace {

bool says(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The story with its defaults changed by "name=value" assignments, as a scenario file.
ScenarioFile storyFile(const std::string& name, const std::vector<std::string>& sets) {
    ScenarioFile file;
    file.story = name;
    ScenarioParams params = scenarioNamed(name).defaults();
    for (const auto& s : sets) params.assign(s);
    for (const ParamSpec& p : scenarioNamed(name).params)
        file.params.emplace_back(p.name, params.get(p.name));
    return file;
}

int exploredStaleWrites(const std::string& name, const std::vector<std::string>& sets,
                        int budget = 1) {
    return explore(storyFile(name, sets), budget)
        .properties[static_cast<int>(Property::StaleWriteAccepted)]
        .breaks;
}

}  // namespace

TEST(WriteOrder, StaleMeansAfterANewerHoldersWriteAndLateMeansNoNewerOneYet) {
    WriteOrder order;
    // The old holder's lease is gone but no one newer wrote: late, not stale.
    EXPECT_EQ(order.judge({"old", 1, false, true, std::nullopt}), WriteClass::Late);
    EXPECT_EQ(order.judge({"new", 2, true, true, std::nullopt}), WriteClass::Current);
    // The old holder again, after the newer holder's write: stale.
    EXPECT_EQ(order.judge({"old", 1, false, true, std::nullopt}), WriteClass::Stale);
    // The newer holder is still the newest.
    EXPECT_EQ(order.judge({"new", 2, true, true, std::nullopt}), WriteClass::Current);
}

TEST(WriteOrder, RefusalsAreSortedByWhoHadWrittenAndWithWhichNumber) {
    WriteOrder fenced;
    EXPECT_EQ(fenced.judge({"new", 2, true, true, 2}), WriteClass::Current);
    EXPECT_EQ(fenced.judge({"old", 1, false, false, 1}), WriteClass::RefusedStale);
    WriteOrder tie;
    EXPECT_EQ(tie.judge({"new", 2, true, true, 1}), WriteClass::Current);
    EXPECT_EQ(tie.judge({"old", 1, false, false, 1}), WriteClass::RefusedTie);
    WriteOrder holder;
    EXPECT_EQ(holder.judge({"old", 1, false, true, 1}), WriteClass::Late);
    EXPECT_EQ(holder.judge({"new", 2, true, false, 1}), WriteClass::RefusedHolder);
    // Two tenures with the same rank cannot be ordered: the second writer's is stale.
    WriteOrder same;
    EXPECT_EQ(same.judge({"w1/1", 5, true, true, 5}), WriteClass::Current);
    EXPECT_EQ(same.judge({"w2/1", 5, true, true, 5}), WriteClass::Stale);
}

// Item 2: the fix (a monotonic token) with a clock jump: client1 writes after its majority
// is gone, before client2 writes. A late write, not a stale one, and --explore agrees.
TEST(StaleAndLateWrites, ALateWriteBeforeTheNewerHoldersIsNotStale) {
    RunResult run = simulate("redlock-clock-jump", {"fencing=1"});
    EXPECT_EQ(run.outcome.staleWritesAccepted, 0);
    EXPECT_EQ(run.outcome.lateWrites, 1);
    const std::string verdict = runVerdict(run.outcome);
    EXPECT_FALSE(says(verdict, "stale write was accepted")) << verdict;
    EXPECT_TRUE(says(verdict, "1 late write")) << verdict;
    EXPECT_EQ(exploredStaleWrites("redlock-clock-jump", {"fencing=1"}), 0);
}

// Item 2: fixed-report with one instance: its lease lapses while it works and it saves
// late, with no other holder at all. Nothing went wrong with what it guarded.
TEST(StaleAndLateWrites, ALoneLateWriterIsNotAStaleWrite) {
    RunResult run = simulate("fixed-report", {"instances=1"});
    EXPECT_EQ(run.outcome.staleWritesAccepted, 0);
    EXPECT_EQ(run.outcome.lateWrites, 1);
    const std::string verdict = runVerdict(run.outcome);
    EXPECT_FALSE(says(verdict, "went wrong")) << verdict;
    EXPECT_FALSE(says(verdict, "stale write")) << verdict;
}

// Item 2: a write over a newer holder's stays stale, fenced or not, and --explore agrees.
TEST(StaleAndLateWrites, AWriteAfterTheNewerHoldersIsStale) {
    RunResult plain = simulate("redlock-gc-pause");
    EXPECT_EQ(plain.outcome.staleWritesAccepted, 1);
    EXPECT_EQ(plain.outcome.lateWrites, 0);
    EXPECT_TRUE(says(runVerdict(plain.outcome), "1 stale write was accepted"));
    EXPECT_EQ(exploredStaleWrites("redlock-gc-pause", {}), 1);
    RunResult fenced = simulate("redlock-gc-pause", {"fencing=1"});
    EXPECT_EQ(fenced.outcome.staleWritesAccepted, 0);
    EXPECT_EQ(fenced.outcome.staleWritesRejected, 1);
}

// The lead's decision: a holder's place in the order is the moment it learned it holds the
// lock, when its token is handed out, not when its SETs ran. client1 SETs at 0 s but, paused
// 5 s, counts its replies at 5 s, after client2 (2.05 s): client1 is the newer holder, its
// higher token is right, and its write after client2's is no stale write. --explore over the
// whole menu (which pauses client1 so) finds none with the counter, but the trap's and the
// unfenced stale writes remain.
TEST(StaleAndLateWrites, TheHolderOrderIsWhenEachLearnedItHoldsTheLock) {
    ScenarioFile file = storyFile("redlock-clock-jump", {"fencing=1"});
    file.forks.push_back(parsePauseFlag("client1@0+5000"));
    const std::unique_ptr<Replay> paused = openScenario(file);
    EXPECT_EQ(paused->outcome().staleWritesAccepted, 0);
    EXPECT_EQ(paused->outcome().overlappingHolds, 1);
    EXPECT_EQ(exploredStaleWrites("redlock-clock-jump", {"fencing=1"}, 500), 0);
    EXPECT_GT(exploredStaleWrites("redlock-clock-jump", {"fencing=0"}, 500), 0);
    EXPECT_GT(exploredStaleWrites("redlock-gc-pause", {"fencing=2"}, 500), 0);
}

// Item 1, decided: the trap's number is the row's version read when the client writes, plus
// one, so it always clears WHERE fence < ?: it fences nothing. In redlock-gc-pause the woken
// client1 writes after client2, the holder, and the store takes that stale write, as
// --explore counts it; the fix (a counter handed out as the lock changes hands) rejects it.
TEST(StaleAndLateWrites, TheVersionTrapAcceptsTheStaleWriteAsExploreFinds) {
    RunResult trap = simulate("redlock-gc-pause", {"fencing=2"});
    EXPECT_EQ(trap.outcome.staleWritesAccepted, 1);
    EXPECT_EQ(trap.outcome.staleWritesRejected, 0);
    EXPECT_EQ(trap.outcome.tiedWritesRejected, 0);
    const std::string verdict = runVerdict(trap.outcome);
    EXPECT_TRUE(says(verdict, "1 stale write was accepted")) << verdict;
    EXPECT_FALSE(says(verdict, "rejected by the fencing token")) << verdict;
    const int asked = findBeat(trap.recording, [](const Beat& b) {
        return b.actor == "client1" && b.predict.has_value();
    });
    ASSERT_GE(asked, 0);
    const std::string answer = trap.recording.beats[asked].predict->answer;
    EXPECT_TRUE(answer.starts_with("Yes")) << answer;
    EXPECT_GT(exploredStaleWrites("redlock-gc-pause", {"fencing=2"}), 0);
    // The fix, for comparison: a lower token refused after a higher one is fencing at work.
    RunResult fix = simulate("redlock-gc-pause", {"fencing=1"});
    EXPECT_TRUE(says(runVerdict(fix.outcome), "rejected by the fencing token"));
    EXPECT_EQ(exploredStaleWrites("redlock-gc-pause", {"fencing=1"}), 0);
}

// Item 6: fixed-report with C, the current holder, paused at 75 s for 15 s: A, whose lock is
// gone, saves and claims the date key first; C saves later and its email is held back. The
// date key did not protect anything here: it kept the lock-less run's email.
TEST(StaleAndLateWrites, TheDateKeyIsJudgedByWhoHeldTheLock) {
    Replay replay("fixed-report");
    replay.pauseInstanceAt("C", 75000, 15000);
    const OutcomeSummary& o = replay.outcome();
    EXPECT_EQ(o.emailsSent, 1);
    EXPECT_EQ(o.holderEmailsHeldBack, 1);
    EXPECT_EQ(o.emailsSuppressed, 0);
    const std::string verdict = runVerdict(o);
    EXPECT_FALSE(says(verdict, "held back by the date key.")) << verdict;
    EXPECT_TRUE(says(verdict, "came from a run whose lock was gone")) << verdict;
    // Without the pause the date key holds back a duplicate as it should.
    Replay plain("fixed-report");
    EXPECT_EQ(plain.outcome().holderEmailsHeldBack, 0);
}
