// Issue 19, "counts and outcomes that contradict the transcript" (items 7-10): the outcome a
// story prints counts what its transcript shows, and nothing that is not in the story.

#include <gtest/gtest.h>

#include "sim_test_support.h"

using namespace lockscope::sim;
using namespace lockscope::sim::testing;

namespace {

int commandsReplying(const Recording& r, const std::string& reply) {
    int n = 0;
    for (const auto& e : r.events) n += e.kind == EventKind::Command && e.reply == reply;
    return n;
}

}  // namespace

// Item 7: the multi-server outcome counts incidents and says so.
TEST(StoryCounts, OverlapsAreNamedAsTimesTwoClientsHeldIt) {
    for (const char* story : {"failover", "redlock-gc-pause", "redlock-clock-jump"}) {
        RunResult run = simulate(story);
        const std::string text = formatOutcome(run.outcome);
        EXPECT_NE(text.find("times two clients held it at once: 1"), std::string::npos) << text;
        EXPECT_EQ(text.find("clients holding the lock at once"), std::string::npos) << text;
    }
}

// Item 8: a refused SET NX is a failed lock attempt.
TEST(StoryCounts, RefusedAttemptsAreCounted) {
    RunResult seats = simulate("seat-hold");
    const int refused = commandsReplying(seats.recording, "(nil)");
    EXPECT_GT(refused, 0);
    EXPECT_EQ(seats.outcome.lockAttemptsFailed, refused);
    RunResult failover = simulate("failover", {"failover_at_ms=100"});
    EXPECT_EQ(commandsReplying(failover.recording, "(nil)"), 1);
    EXPECT_EQ(failover.outcome.lockAttemptsFailed, 1);
}

// Item 9: the guide's script acquires, then sleeps; and its outcome has no report file.
TEST(StoryCounts, TheExpiryRaceSleepsAfterBIsRefusedAndShowsOnlyItsOwnOutcome) {
    RunResult run = simulate("expiry-race");
    int refusedPrint = -1, sleep = -1;
    for (const auto& e : run.recording.events) {
        if (refusedPrint < 0 && e.kind == EventKind::Printed && e.actor == "b" &&
            e.reply == "False")
            refusedPrint = e.index;
        if (sleep < 0 && e.kind == EventKind::PauseStarted) sleep = e.index;
    }
    ASSERT_GE(refusedPrint, 0);
    ASSERT_GE(sleep, 0);
    EXPECT_LT(refusedPrint, sleep);
    EXPECT_EQ(run.outcome.printed,
              (std::vector<std::string>{"True 1", "False", "True 2", "False False", "True"}));
    const std::string text = formatOutcome(run.outcome);
    EXPECT_EQ(text.find("output file"), std::string::npos) << text;
    EXPECT_EQ(text.find("emails"), std::string::npos) << text;
    EXPECT_NE(text.find("printed: True 2"), std::string::npos) << text;
}

// Item 10: the operator presses "run now" only when the report has not run tonight.
TEST(StoryCounts, TheOperatorDoesNotRerunAJobThatAlreadyRan) {
    RunResult run = simulate("setnx-expire-crash", {"crash_at_ms=5"});
    EXPECT_EQ(run.outcome.runsStarted, 3);  // A (crashed), B and C; no run #4
    EXPECT_EQ(run.outcome.emailsSent, 2);
    EXPECT_EQ(countEvents(run.recording, EventKind::RunStarted), 3);
    // Where the orphan blocked every run, the operator's "run now" produces the one report.
    RunResult orphan = simulate("setnx-expire-crash");
    EXPECT_EQ(orphan.outcome.emailsSent, 1);
    EXPECT_EQ(orphan.outcome.runsCompleted, 1);
}
