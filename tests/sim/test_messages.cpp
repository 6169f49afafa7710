// Narration as message ids with arguments (lockscope/sim/message.h): every narrated-by-id
// beat's English text is its messages rendered, each id has an English template, and the
// templates take hostile arguments (a "%", binary bytes, a huge text) as they are.

#include <gtest/gtest.h>

#include "lockscope/sim/message.h"
#include "lockscope/sim/replay.h"
#include "lockscope/sim/scenario.h"

using namespace lockscope::sim;

TEST(Messages, EveryNarratedByIdBeatIsItsMessagesInEnglish) {
    int byId = 0;
    for (const Scenario& s : scenarios()) {
        SCOPED_TRACE(s.name);
        Replay replay(s.name);
        for (const Beat& b : replay.beats()) {
            if (b.narrationParts.empty()) continue;
            ++byId;
            EXPECT_EQ(b.narration, renderEnglish(b.narrationParts));
            for (const Message& m : b.narrationParts) {
                if (m.id.empty()) continue;
                EXPECT_FALSE(englishTemplate(m.id).empty()) << m.id;
            }
        }
    }
    EXPECT_GT(byId, 10);  // get-then-del, expiry-race and atomic-counter narrate by id
}

TEST(Messages, GetThenDelSaysWhoSendsDelByIdAndArgument) {
    Replay replay("get-then-del");
    bool found = false;
    for (const Beat& b : replay.beats())
        if (!b.narrationParts.empty() && b.narrationParts.front().id == "sim.gtd.sends-del") {
            found = true;
            EXPECT_EQ(b.narrationParts.front().args, std::vector<std::string>{"a"});
            EXPECT_EQ(b.narration.rfind("a sends DEL.", 0), 0u) << b.narration;
        }
    EXPECT_TRUE(found);
}

TEST(Messages, TemplatesTakeHostileArgumentsAsTheyAre) {
    const std::string binary("\x00\xff\xfe%1\"\\\n", 8);
    EXPECT_EQ(fillTemplate("%1 sends DEL.", {binary}), binary + " sends DEL.");
    EXPECT_EQ(fillTemplate("%2-%1", {"a", "%1"}), "%1-a");  // an argument is not re-read
    EXPECT_EQ(fillTemplate("100%% of %1", {"x"}), "100% of x");
    EXPECT_EQ(fillTemplate("%3 and %", {"a"}), "%3 and %");  // missing argument, lone %
    EXPECT_EQ(fillTemplate("", {"a"}), "");
    const std::string huge(1 << 20, 'x');
    EXPECT_EQ(fillTemplate("<%1>", {huge}).size(), huge.size() + 2);
}

TEST(Messages, AnUnknownIdHasNoTemplateAndALiteralIsItsText) {
    EXPECT_TRUE(englishTemplate("no.such.id").empty());
    EXPECT_EQ(renderEnglish(Message{"no.such.id", {"a"}}), "");
    EXPECT_EQ(renderEnglish(Message::literal("Refused: b holds it.")), "Refused: b holds it.");
    EXPECT_EQ(renderEnglish(std::vector<Message>{Message{"sim.gtd.sends-del", {"a"}},
                                                 Message::literal("Facts.")}),
              "a sends DEL. Facts.");
}

// Issue 14: the report jobs (broken-report, fixed-report), the Redlock validity note and the
// clock jump narrate by id too, with the English text the CLI always printed.
TEST(Messages, ReportJobsRedlockValidityAndClockJumpNarrateById) {
    struct Expected {
        const char* story;
        const char* id;
        const char* english;  // what the beat's narration starts with
    };
    const Expected expected[] = {
        {"broken-report", "sim.report.scheduler-fires",
         "A's scheduler fires the nightly report job."},
        {"broken-report", "sim.report.plain-del", "A deletes the lock with a plain DEL."},
        {"fixed-report", "sim.report.acquire-script",
         "A's scheduler fires; lock.acquire() runs the guide's acquire script (SET NX PX, then "
         "INCR of the fence counter)."},
        {"fixed-report", "sim.report.renews",
         "A built chunk 0 and renews its lock before writing it."},
        {"fixed-report", "sim.report.saves", "C calls save_report(db, final_path, fence=2)."},
        {"redlock-gc-pause", "sim.redlock.oks",
         "client1 has OK from A, B, C, D and E: 5 of 5 (a majority is 3) in 5 ms since it "
         "started at 0.000s. Validity = 10 s − 5 ms − drift 102 ms = 9.893 s. client1 holds the "
         "lock until 9.898s by its own clock."},
        {"redlock-clock-jump", "sim.clock.jumps",
         "C's clock jumps 9.5 s forward (an NTP step, a VM resumed after suspension). client1's "
         "key there had 9 s left; by C's clock it now has none: it expires now."},
    };
    for (const Expected& e : expected) {
        SCOPED_TRACE(std::string(e.story) + " " + e.id);
        Replay replay(e.story);
        const Beat* found = nullptr;
        for (const Beat& b : replay.beats())
            if (!found && !b.narrationParts.empty() && b.narrationParts.front().id == e.id)
                found = &b;
        ASSERT_NE(found, nullptr);
        EXPECT_EQ(found->narration.rfind(e.english, 0), 0u) << found->narration;
    }
}
