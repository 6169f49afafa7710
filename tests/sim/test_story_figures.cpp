// Issue 34, items 7 and 8: the figures a story prints are the rules' own. Redlock's "holds
// the lock until" is the decision time plus the validity left (the elapsed time is in the
// validity once); a seat's time left is read from that seat's key; the narration names the
// statement the database ran.

#include <gtest/gtest.h>

#include "sim_test_support.h"

using namespace lockscope::sim;
using namespace lockscope::sim::testing;

namespace {

// The narration of the first beat of `actor` that contains `part` ("" if none).
std::string narrationWith(const Recording& r, const std::string& actor, const std::string& part) {
    const int i = findBeat(r, [&](const Beat& b) {
        return (actor.empty() || b.actor == actor) && b.narration.find(part) != std::string::npos;
    });
    return i < 0 ? std::string() : r.beats[i].narration;
}

bool anyBeatSays(const Recording& r, const std::string& part) {
    return findBeat(
               r, [&](const Beat& b) { return b.narration.find(part) != std::string::npos; }) >= 0;
}

}  // namespace

// Item 7: TTL 10 s, drift 102 ms: the lock is valid until 0 + 10 s - 102 ms = 9.898 s by
// client1's clock, however long the attempt took.
TEST(StoryFigures, RedlockHoldsTheLockUntilItsStartPlusTtlLessDrift) {
    const RunResult run = simulate("redlock-gc-pause");
    const std::string until = narrationWith(run.recording, "client1", "holds the lock until");
    EXPECT_NE(until.find("until 9.898s"), std::string::npos) << until;

    // A pause inside the attempt: 9.003 s elapsed, 895 ms of validity left, still until 9.898 s
    // (not 0.895 s, a time already past).
    const RunResult paused =
        simulate("redlock-gc-pause", {"pause_at_ms=3", "pause_ms=9000", "client2_at_ms=20000"});
    const std::string late = narrationWith(paused.recording, "client1", "holds the lock until");
    EXPECT_NE(late.find("until 9.898s"), std::string::npos) << late;
}

// Item 8: every seat's holder is shown with its own seat's time left.
TEST(StoryFigures, SeatHoldReadsEachSeatsOwnTimeLeft) {
    const RunResult run = simulate("seat-hold");
    EXPECT_TRUE(anyBeatSays(run.recording, "u3 holds it (599.94 s left)"))
        << narrationWith(run.recording, "", "u3 holds it");
    EXPECT_TRUE(anyBeatSays(run.recording, "u5 holds it (570.06 s left)"))
        << narrationWith(run.recording, "", "u5 holds it");
    const RunResult later = simulate("seat-hold", {"arrival_ms=100"});
    EXPECT_TRUE(anyBeatSays(later.recording, "u2 holds it (599.7 s left)"))
        << narrationWith(later.recording, "", "u2 holds it");
}

// Item 8: with the conditional update (fix=2) there is no bookings table: the narration
// names the seats table the UPDATE changed.
TEST(StoryFigures, TheConditionalUpdateIsNarratedAsTheUpdateItIs) {
    const RunResult run = simulate("seat-hold", {"fix=2"});
    EXPECT_FALSE(anyBeatSays(run.recording, "The bookings table records"));
    EXPECT_TRUE(anyBeatSays(run.recording, "The conditional update sets seat"));
    const RunResult unique = simulate("seat-hold", {"fix=1"});
    EXPECT_TRUE(anyBeatSays(unique.recording, "The bookings table records"));
}

// Item 9: a pause that ends inside a longer one does not resume the actor.
TEST(StoryFigures, APauseEndingInsideAnotherDoesNotResumeTheActor) {
    Replay replay("redlock-gc-pause");  // client1 is frozen from 0.050s to 15.050s
    replay.pauseInstanceAt("client1", 1000, 2000);
    const Recording& r = replay.recording();
    const int innerEnd = findBeat(r, [](const Beat& b) { return b.time == 3000; });
    ASSERT_GE(innerEnd, 0);
    EXPECT_EQ(r.beats[innerEnd].narration.find("resumes"), std::string::npos)
        << r.beats[innerEnd].narration;
    EXPECT_NE(r.beats[innerEnd].narration.find("frozen until 15.050s"), std::string::npos)
        << r.beats[innerEnd].narration;
    const int outerEnd = findBeat(r, [](const Beat& b) {
        return b.time == 15050 && b.narration.find("resumes") != std::string::npos;
    });
    EXPECT_GE(outerEnd, 0);
}

// Item 9: the operator's "run now" happens when the narration promised it, even before the
// instance's own scheduled trigger (it queued behind that trigger and never ran).
TEST(StoryFigures, TheOperatorsRunNowHappensWhenPromised) {
    const RunResult run = simulate("setnx-expire-crash", {"operator_at_ms=20000"});
    const int promise = findBeat(run.recording, [](const Beat& b) {
        return b.narration.find("run now") != std::string::npos && b.actor == "operator";
    });
    ASSERT_GE(promise, 0);
    const int pressed = findBeat(
        run.recording,
        [](const Beat& b) {
            return b.actor == "B" && b.narration.find("presses \"run now\"") != std::string::npos;
        },
        promise + 1);
    ASSERT_GE(pressed, 0) << run.recording.beats[promise].narration;
    EXPECT_NE(run.recording.beats[promise].narration.find(
                  formatVirtualTime(run.recording.beats[pressed].time)),
              std::string::npos)
        << run.recording.beats[promise].narration;
}
