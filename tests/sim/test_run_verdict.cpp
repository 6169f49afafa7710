// The after-run verdict is computed from what the run counted, not from a story's fixed
// text: a lock whose TTL runs out mid-update loses updates, and the verdict says so.

#include <gtest/gtest.h>

#include "lockscope/sim/run_verdict.h"
#include "sim_test_support.h"

using namespace lockscope::sim;
using namespace lockscope::sim::testing;

namespace {

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

// The guide's lock around GET and SET is 1 s (PX 1000): a worker that thinks longer loses
// it, the other worker takes it, and both write back what they read.
TEST(RunVerdict, ALockThatExpiresMidUpdateLosesUpdatesAndTheVerdictSaysSo) {
    RunResult run = simulate("atomic-counter", {"mode=1", "think_ms=1500"});
    ASSERT_GT(run.outcome.lostUpdates, 0);
    const std::string verdict = runVerdict(run.outcome);
    EXPECT_TRUE(has(verdict, "went wrong")) << verdict;
    EXPECT_TRUE(has(verdict, std::to_string(run.outcome.lostUpdates) + " update")) << verdict;
    EXPECT_FALSE(has(verdict, "came out correct")) << verdict;
    // The story's description no longer claims an outcome the run can contradict.
    EXPECT_FALSE(has(scenarioNamed("atomic-counter").summary, "correct"));
}

// The verdict names the cause the rules saw, with the run's own counts: the lock's TTL ran
// out while its holder was between GET and SET, and a second worker took it meanwhile.
TEST(RunVerdict, ALockThatExpiresMidUpdateIsNamedAsTheCause) {
    RunResult run = simulate("atomic-counter", {"mode=1", "think_ms=1500"});
    const OutcomeSummary& o = run.outcome;
    ASSERT_GT(o.lostUpdates, 0);
    EXPECT_GT(o.updatesAfterLockExpired, 0);
    EXPECT_GT(o.overlapsAfterLeaseExpired, 0);
    EXPECT_EQ(o.updatesWithoutLock, 0);
    const std::string verdict = runVerdict(o);
    EXPECT_TRUE(has(verdict, "Why: the lock's TTL ran out " +
                                 std::to_string(o.updatesAfterLockExpired) +
                                 " times while its holder was still inside its "
                                 "read-modify-write"))
        << verdict;
    EXPECT_TRUE(has(verdict, "a second worker took the lock and both held it at once " +
                                 std::to_string(o.overlapsAfterLeaseExpired) + " times"))
        << verdict;
    // The write-back beat itself says its writer's lock was already gone.
    const int late = findBeat(run.recording, [](const Beat& b) {
        return b.command.starts_with("SET views:{home}") && has(b.narration, "lock expired at") &&
               has(b.narration, "holds it now");
    });
    EXPECT_GE(late, 0);
}

// Computed from the run, not fixed text: with no lock the cause is the missing lock; a think
// time within the TTL loses nothing and names no cause.
TEST(RunVerdict, TheCauseFollowsTheRun) {
    RunResult bare = simulate("atomic-counter", {"mode=0"});
    ASSERT_GT(bare.outcome.lostUpdates, 0);
    EXPECT_EQ(bare.outcome.updatesAfterLockExpired, 0);
    const std::string bareVerdict = runVerdict(bare.outcome);
    EXPECT_TRUE(has(bareVerdict, "Why: " + std::to_string(bare.outcome.updatesWithoutLock) +
                                     " updates read the counter and wrote it back with no lock"))
        << bareVerdict;
    EXPECT_FALSE(has(bareVerdict, "TTL")) << bareVerdict;

    RunResult within = simulate("atomic-counter", {"mode=1", "think_ms=900"});
    EXPECT_EQ(within.outcome.lostUpdates, 0);
    EXPECT_EQ(within.outcome.updatesAfterLockExpired, 0);
    EXPECT_EQ(within.outcome.overlappingHolds, 0);
    EXPECT_FALSE(has(runVerdict(within.outcome), "Why:")) << runVerdict(within.outcome);
}

// The transcript (CLI, export, scenario files) ends with the verdict, cause included.
TEST(RunVerdict, TheTranscriptEndsWithTheVerdict) {
    ScenarioParams params = scenarioNamed("atomic-counter").defaults();
    params.assign("mode=1");
    params.assign("think_ms=1500");
    const Replay replay("atomic-counter", params);
    const std::string transcript = replay.transcript();
    const std::string last = "verdict: " + runVerdict(replay.outcome()) + "\n";
    ASSERT_GE(transcript.size(), last.size());
    EXPECT_EQ(transcript.substr(transcript.size() - last.size()), last) << transcript;
    EXPECT_TRUE(has(last, "Why: the lock's TTL ran out")) << last;
}

TEST(RunVerdict, TheLockWithinItsTtlAndIncrLoseNothing) {
    for (const char* mode : {"mode=1", "mode=2"}) {
        RunResult run = simulate("atomic-counter", {mode});
        ASSERT_EQ(run.outcome.lostUpdates, 0) << mode;
        const std::string verdict = runVerdict(run.outcome);
        EXPECT_TRUE(has(verdict, "came out correct: no update was lost")) << mode << verdict;
    }
    RunResult incr = simulate("atomic-counter", {"mode=2", "think_ms=5000"});
    EXPECT_TRUE(has(runVerdict(incr.outcome), "no update was lost"));
}

TEST(RunVerdict, ReadThenWriteLosesUpdates) {
    RunResult run = simulate("atomic-counter", {"mode=0"});
    ASSERT_GT(run.outcome.lostUpdates, 0);
    EXPECT_TRUE(has(runVerdict(run.outcome), "went wrong")) << runVerdict(run.outcome);
}

// get-then-del: the non-atomic release deletes b's lock; the script cannot.
TEST(RunVerdict, GetThenDelFollowsItsForeignDeletions) {
    RunResult racy = simulate("get-then-del");
    ASSERT_GT(racy.outcome.foreignDeletions, 0);
    const std::string racyVerdict = runVerdict(racy.outcome);
    EXPECT_TRUE(has(racyVerdict, "went wrong: a client deleted a lock it did not own"))
        << racyVerdict;
    EXPECT_FALSE(has(racyVerdict, "came out correct")) << racyVerdict;

    RunResult atomic = simulate("get-then-del", {"atomic=1"});
    ASSERT_EQ(atomic.outcome.foreignDeletions, 0);
    EXPECT_TRUE(has(runVerdict(atomic.outcome), "came out correct")) << runVerdict(atomic.outcome);
    // Nothing interleaves with a lock that outlives a's work: the same verdict as atomic.
    RunResult slow = simulate("get-then-del", {"ttl_ms=10000"});
    EXPECT_EQ(slow.outcome.foreignDeletions, 0);
    EXPECT_TRUE(has(runVerdict(slow.outcome), "came out correct")) << runVerdict(slow.outcome);
}

// redlock-gc-pause: without fencing the stale write lands; with a fencing token it is
// rejected, and the verdict names the protection rather than calling the lock safe.
TEST(RunVerdict, FencingTurnsTheGcPauseIntoACaughtStaleWrite) {
    RunResult bare = simulate("redlock-gc-pause");
    ASSERT_GT(bare.outcome.staleWritesAccepted, 0);
    EXPECT_TRUE(has(runVerdict(bare.outcome), "stale write")) << runVerdict(bare.outcome);
    EXPECT_TRUE(has(runVerdict(bare.outcome), "went wrong")) << runVerdict(bare.outcome);

    RunResult fenced = simulate("redlock-gc-pause", {"fencing=1"});
    ASSERT_EQ(fenced.outcome.staleWritesAccepted, 0);
    ASSERT_GT(fenced.outcome.staleWritesRejected, 0);
    const std::string verdict = runVerdict(fenced.outcome);
    EXPECT_TRUE(has(verdict, "The lock did not hold")) << verdict;
    EXPECT_TRUE(has(verdict, "rejected by the fencing token")) << verdict;
}

// Every story gets a verdict that matches its default run's counts.
TEST(RunVerdict, EveryStoryHasOne) {
    for (const auto& s : scenarios()) {
        RunResult run = simulate(s.name);
        const std::string verdict = runVerdict(run.outcome);
        EXPECT_FALSE(verdict.empty()) << s.name;
        const bool harmed = run.outcome.lostUpdates > 0 || run.outcome.staleWritesAccepted > 0 ||
                            run.outcome.seatsSoldTwice > 0 || run.outcome.corruptedWrites > 0;
        if (harmed) {
            EXPECT_TRUE(has(verdict, "went wrong")) << s.name << ": " << verdict;
        }
    }
}
