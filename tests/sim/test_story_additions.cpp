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

// Issue 34, item 9: in redlock-clock-jump, client1 paused while acquiring counts C's OK after
// the jump expired its key there and client2 took C: the overlap is the clock jump's.
TEST(StoryAdditions, AnOverlapAfterALateCountIsBlamedOnTheClockJump) {
    Replay replay("redlock-clock-jump");
    replay.pauseInstanceAt("client1", 0, 5000);
    const OutcomeSummary& o = replay.outcome();
    EXPECT_EQ(o.overlappingHolds, 1);
    EXPECT_EQ(o.overlapsAfterClockJump, 1);
}

// Issue 34, item 9: "releases on every node" shows the attempts on the nodes it cannot reach,
// each dropped by the network.
TEST(StoryAdditions, ARedlockReleaseAttemptsTheUnreachableNodesToo) {
    const RunResult run = simulate("redlock-clock-jump");
    std::vector<std::string> dropped;
    for (const Beat& b : run.recording.beats)
        if (b.actor == "client1" && b.reply == "(timeout)" &&
            b.command.find("lock:{report:daily} ") != std::string::npos &&
            b.command.find("NX") == std::string::npos)
            dropped.push_back(b.command.substr(0, 1));
    EXPECT_EQ(dropped, (std::vector<std::string>{"D", "E"}));
}

// Issue 34, item 9: a pause freezes the work in progress; the work left when it froze is
// still to do when it resumes. Chunk A6, 750 ms begun at 4.5 s, frozen at 5 s for 30 s,
// lands at 35.25 s; a Redlock client's 500 ms of work begun at 5 ms, frozen at 50 ms for
// 15 s, ends at 15.505 s.
TEST(StoryAdditions, APauseKeepsTheWorkLeftWhenItFroze) {
    const RunResult report = simulate("broken-report", {"pause_instance=1", "pause_at_ms=5000",
                                                        "pause_ms=30000", "db_slow_until_ms=0"});
    std::vector<VirtualMs> chunks;
    for (const TimelineEvent& e : report.recording.events)
        if (e.kind == EventKind::ChunkWritten && e.actor == "A") chunks.push_back(e.time);
    ASSERT_GE(chunks.size(), 8u);
    EXPECT_EQ(chunks[5], 4500);   // A5
    EXPECT_EQ(chunks[6], 35250);  // A6
    EXPECT_EQ(chunks[7], 36000);  // A7, a chunk later
    const RunResult redlock = simulate("redlock-gc-pause");
    VirtualMs written = -1;
    for (const TimelineEvent& e : redlock.recording.events)
        if (e.kind == EventKind::FencedWriteAccepted && e.actor == "client1") written = e.time;
    EXPECT_EQ(written, 15505);
}
