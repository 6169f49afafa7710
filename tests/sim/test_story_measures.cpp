// Each story's comparison table shows the measures the story declares, not a shared list
// of report rows that mostly read 0: every row it declares counts something in the story as
// told or in the variant the table compares it with.

#include <gtest/gtest.h>

#include "lockscope/sim/story_measures.h"
#include "sim_test_support.h"

using namespace lockscope::sim;
using namespace lockscope::sim::testing;

namespace {

std::vector<std::string> labels(const Scenario& s) {
    std::vector<std::string> out;
    for (const auto& row : comparisonRowsFor(s)) out.push_back(row.label);
    return out;
}

int measured(const std::string& story, const std::string& label,
             const std::vector<std::string>& sets = {}) {
    for (const auto& row : comparisonRowsFor(scenarioNamed(story)))
        if (row.label == label) return row.value(simulate(story, sets).outcome);
    ADD_FAILURE() << story << " has no row " << label;
    return -1;
}

// The runs a story's table shows as references (the story as told and its variant, or for
// the report jobs both jobs), and the parameters its narration points at (fencing=2's trap).
std::vector<OutcomeSummary> runsOf(const Scenario& s) {
    std::vector<OutcomeSummary> runs;
    if (s.fixedBy.empty()) {
        runs = {simulate("broken-report").outcome, simulate("fixed-report").outcome};
    } else {
        runs = {simulate(s.name).outcome, simulate(s.name, {s.fixedBy}).outcome};
    }
    if (s.name.starts_with("redlock-")) runs.push_back(simulate(s.name, {"fencing=2"}).outcome);
    return runs;
}

// The lesson of the guide's own client is that it never deletes another's lock: that row's
// 0 is the point, and no parameter of the story makes it count.
bool zeroIsTheLesson(const Scenario& s, const ComparisonRow& row) {
    return s.name == "expiry-race" && row.label == "Foreign deletions";
}

}  // namespace

TEST(StoryMeasures, TheAtomicCounterCountsLostUpdatesAndTheirPrice) {
    EXPECT_EQ(labels(scenarioNamed("atomic-counter")),
              (std::vector<std::string>{"Lost updates", "Commands per update"}));
    // GET + SET; SET NX + GET + SET + release; INCR.
    EXPECT_EQ(measured("atomic-counter", "Commands per update", {"mode=0"}), 2);
    EXPECT_EQ(measured("atomic-counter", "Commands per update", {"mode=1"}), 4);
    EXPECT_EQ(measured("atomic-counter", "Commands per update", {"mode=2"}), 1);
    EXPECT_GT(measured("atomic-counter", "Lost updates", {"mode=0"}), 0);
    EXPECT_EQ(measured("atomic-counter", "Lost updates", {"mode=2"}), 0);
    EXPECT_EQ(scenarioNamed("atomic-counter").fixedBy, "mode=2");
}

TEST(StoryMeasures, NoStoryShowsAnotherStorysRows) {
    for (const char* story : {"atomic-counter", "expiry-race", "get-then-del", "failover",
                              "redlock-gc-pause", "redlock-clock-jump"}) {
        for (const auto& label : labels(scenarioNamed(story))) {
            EXPECT_NE(label, "Emails sent") << story;
            EXPECT_NE(label, "Duplicate runs") << story;
        }
    }
    for (const char* story :
         {"broken-report", "fixed-report", "setnx-expire-crash", "expiry-race", "get-then-del"}) {
        for (const auto& label : labels(scenarioNamed(story))) {
            EXPECT_NE(label, "Seats sold twice") << story;
            EXPECT_NE(label, "Lost updates") << story;
        }
    }
}

// A declared row is one the story can produce: it reads something in one of the runs the
// table shows as references, or the one its narration points at.
TEST(StoryMeasures, EveryDeclaredRowCountsSomethingInTheStorysReferences) {
    for (const Scenario& s : scenarios()) {
        ASSERT_FALSE(s.measures.empty()) << s.name;
        const auto runs = runsOf(s);
        for (const auto& row : s.measures) {
            if (zeroIsTheLesson(s, row)) continue;
            bool counts = false;
            for (const auto& o : runs) counts = counts || row.value(o) > 0;
            EXPECT_TRUE(counts) << s.name << ": \"" << row.label << "\" reads 0 in every reference";
        }
    }
}
