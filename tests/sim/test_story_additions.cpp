// Issue 19, the guide's lessons that had no story yet.

#include <gtest/gtest.h>

#include "sim_test_support.h"

using namespace lockscope::sim;
using namespace lockscope::sim::testing;

// The GET-then-DEL race: the client's check is out of date by the time its DEL arrives.
TEST(StoryAdditions, GetThenDelRemovesTheNextHoldersLock) {
    RunResult run = simulate("get-then-del");
    EXPECT_EQ(run.outcome.foreignDeletions, 1);
    EXPECT_EQ(run.outcome.printed,
              (std::vector<std::string>{"a.acquire() -> True", "b.acquire() -> True",
                                        "a.release() -> True", "c.acquire() -> True"}));
    RunResult atomic = simulate("get-then-del", {"atomic=1"});
    EXPECT_EQ(atomic.outcome.foreignDeletions, 0);
    EXPECT_EQ(atomic.outcome.printed,
              (std::vector<std::string>{"a.acquire() -> True", "a.release() -> True",
                                        "b.acquire() -> True", "c.acquire() -> False"}));
    // With no gap between GET and DEL (and the lock still a's), nothing goes wrong either.
    RunResult quick = simulate("get-then-del", {"gap_ms=0"});
    EXPECT_EQ(quick.outcome.foreignDeletions, 0);
}

// seat-hold's other fix from the guide: a conditional update that succeeds only while the
// seat is free refuses the second confirmation just as the unique constraint does.
TEST(StoryAdditions, SeatHoldConditionalUpdateRefusesTheSecondConfirmation) {
    RunResult broken = simulate("seat-hold");
    RunResult unique = simulate("seat-hold", {"fix=1"});
    RunResult conditional = simulate("seat-hold", {"fix=2"});
    EXPECT_GT(broken.outcome.seatsSoldTwice, 0);
    EXPECT_EQ(conditional.outcome.seatsSoldTwice, 0);
    EXPECT_EQ(conditional.outcome.bookingsRefused, unique.outcome.bookingsRefused);
    EXPECT_EQ(conditional.outcome.bookingsRefused, broken.outcome.seatsSoldTwice);
    int zeroRowUpdates = 0;
    for (const auto& e : conditional.recording.events)
        zeroRowUpdates +=
            e.command.starts_with("UPDATE seats SET sold_to") && e.reply == "UPDATE 0";
    EXPECT_EQ(zeroRowUpdates, conditional.outcome.bookingsRefused);
}

// Redlock and a slow network. Replies delayed past the validity leave no lock (the spec's
// elapsed-time check); a write delayed after the check lands as stale as a paused client's.
TEST(StoryAdditions, RedlockUnderASlowNetwork) {
    RunResult slowReplies =
        simulate("redlock-gc-pause", {"pause_ms=0", "node_timeout_ms=20000", "latency_ms=10000"});
    EXPECT_EQ(slowReplies.outcome.lockAttemptsFailed, 2);  // both clients: validity <= 0
    EXPECT_EQ(slowReplies.outcome.overlappingHolds, 0);
    EXPECT_EQ(countEvents(slowReplies.recording, EventKind::FencedWriteAccepted), 0);

    RunResult slowWrite = simulate("redlock-gc-pause", {"pause_ms=0", "write_delay_ms=15000"});
    EXPECT_EQ(slowWrite.outcome.staleWritesAccepted, 1);
    EXPECT_EQ(slowWrite.outcome.corruptedWrites, 1);  // it lands after client2's report
    RunResult fenced =
        simulate("redlock-gc-pause", {"pause_ms=0", "write_delay_ms=15000", "fencing=1"});
    EXPECT_EQ(fenced.outcome.staleWritesRejected, 1);
    EXPECT_EQ(fenced.outcome.holderWritesRejected, 0);
}

// "Using locks where atomic commands suffice": read-then-write loses updates, a lock around
// it is correct at four commands an update, INCR is correct in one.
TEST(StoryAdditions, AnAtomicCommandDoesWhatTheLockDoesInOneCommand) {
    auto commands = [](const RunResult& run) {
        int n = 0;
        for (const auto& e : run.recording.events)
            n +=
                e.kind == EventKind::Command && e.command.find("views:{home}") != std::string::npos;
        return n;
    };
    RunResult racy = simulate("atomic-counter", {"mode=0"});
    RunResult locked = simulate("atomic-counter", {"mode=1"});
    RunResult incr = simulate("atomic-counter", {"mode=2"});
    EXPECT_GT(racy.outcome.lostUpdates, 0);
    EXPECT_EQ(locked.outcome.lostUpdates, 0);
    EXPECT_EQ(incr.outcome.lostUpdates, 0);
    EXPECT_EQ(commands(incr), 6 + 1);  // one INCR per add, and the final read
    EXPECT_GT(countEvents(locked.recording, EventKind::Command),
              3 * countEvents(incr.recording, EventKind::Command));
    EXPECT_NE(formatOutcome(racy.outcome).find("lost updates"), std::string::npos);
}
