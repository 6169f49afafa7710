// Issue 19, the guide's lessons that had no story yet.

#include <gtest/gtest.h>

#include "lockscope/sim/run_verdict.h"
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

// Issue 34: get-then-del's outcome names the overlap a's DEL caused: b's lock is gone while b
// still believes it holds it, and c takes the lock (a, until its DEL, overlapped b too).
TEST(StoryAdditions, GetThenDelNamesTheClientsThatHeldTheLockTogether) {
    const RunResult run = simulate("get-then-del");
    const std::vector<std::string> expected{"a and b", "b and c"};
    EXPECT_EQ(run.outcome.broken.overlaps, expected);
    const std::string table = formatOutcome(run.outcome);
    EXPECT_NE(table.find("believed they held the lock at the same time: b and c"),
              std::string::npos)
        << table;
    EXPECT_NE(runVerdict(run.outcome).find("(a and b, b and c)"), std::string::npos)
        << runVerdict(run.outcome);
    EXPECT_TRUE(simulate("get-then-del", {"atomic=1"}).outcome.broken.overlaps.empty());
}

// Issue 34, item 8: every seat's hold is narrated, not only A1's: its expiry, its replication
// and its loss in the failover.
TEST(StoryAdditions, SeatHoldNarratesEverySeatsHold) {
    const RunResult run = simulate("seat-hold");
    auto told = [&](const std::string& part) {
        return findBeat(run.recording, [&](const Beat& b) {
                   return b.narration.find(part) != std::string::npos;
               }) >= 0;
    };
    EXPECT_TRUE(told("seat:{gig}:A1 and seat:{gig}:A2 are held on r1 but absent on r2"));
    EXPECT_TRUE(told("seat:{gig}:A2 expired: u2's lease ran out"));
    const RunResult replicated = simulate("seat-hold", {"failover_at_ms=5000"});
    auto toldThere = [&](const std::string& part) {
        return findBeat(replicated.recording, [&](const Beat& b) {
                   return b.narration.find(part) != std::string::npos;
               }) >= 0;
    };
    EXPECT_TRUE(toldThere("r2 receives u2's hold on seat:{gig}:A2 from its primary"));
    EXPECT_TRUE(toldThere("r2 receives u3's hold on seat:{gig}:A3 from its primary"));
}

// Issue 34, item 9: setnx-expire-crash "came out correct" while the job stood still for 91 s
// and two runs were refused: correct, but an outage, and the verdict says so.
TEST(StoryAdditions, SetnxExpireCrashCallsTheBlockedNightAnOutage) {
    const RunResult run = simulate("setnx-expire-crash");
    EXPECT_EQ(run.outcome.orphanBlockedMs, 91000);  // A's SETNX at 0, released at 91 s
    const std::string verdict = runVerdict(run.outcome);
    EXPECT_NE(verdict.find("But late"), std::string::npos) << verdict;
    EXPECT_NE(verdict.find("2 runs were refused"), std::string::npos) << verdict;
    EXPECT_EQ(runVerdict(simulate("broken-report").outcome).find("But late"), std::string::npos);
}
