// Exploring the schedules a small fault menu allows: the broken report job breaks mutual
// exclusion and accepts stale writes, the fixed one never accepts a stale write (it may
// still overlap: that is the lesson), and each shortest counterexample opens as a story
// that breaks the same property again.

#include <gtest/gtest.h>

#include "lockscope/errors.h"
#include "lockscope/sim/explorer.h"

using namespace lockscope;
using namespace lockscope::sim;

namespace {

ScenarioFile story(const std::string& name) {
    ScenarioFile file;
    file.story = name;
    for (const ParamSpec& p : scenarioNamed(name).params)
        file.params.emplace_back(p.name, p.defaultValue);
    return file;
}

const PropertyResult& property(const ExploreResult& r, Property p) {
    return r.properties[static_cast<int>(p)];
}

}  // namespace

TEST(Explorer, TheBrokenReportBreaksMutualExclusionAndAcceptsStaleWrites) {
    ExploreResult r = explore(story("broken-report"), 150);
    EXPECT_EQ(r.schedules, 150);
    EXPECT_TRUE(r.budgetReached);
    EXPECT_GT(property(r, Property::MutualExclusion).breaks, 0);
    EXPECT_GT(property(r, Property::StaleWriteAccepted).breaks, 0);
    // The counterexample is a story: opened again, it breaks the property again.
    for (const PropertyResult& p : r.properties) {
        if (!p.shortest) continue;
        SCOPED_TRACE(toString(p.property));
        ExploreResult single = explore(*p.shortest, 1);  // just the counterexample itself
        EXPECT_EQ(single.schedules, 1);
        EXPECT_EQ(property(single, p.property).breaks, 1);
    }
    EXPECT_NE(formatExplore(r).find("broken-report: 150 schedules, "), std::string::npos);
}

TEST(Explorer, TheFixedReportNeverAcceptsAStaleWrite) {
    ExploreResult r = explore(story("fixed-report"), 400);
    EXPECT_GT(r.schedules, 100);
    EXPECT_EQ(property(r, Property::StaleWriteAccepted).breaks, 0) << formatExplore(r);
    EXPECT_FALSE(property(r, Property::StaleWriteAccepted).shortest);
}

TEST(Explorer, EveryStoryExplores) {
    for (const Scenario& s : scenarios()) {
        SCOPED_TRACE(s.name);
        ExploreResult r = explore(story(s.name), 20);
        EXPECT_GT(r.schedules, 0);
        EXPECT_GT(r.menu, 0);
        EXPECT_EQ(r.properties.size(), 3u);
    }
}

TEST(Explorer, ABudgetOutOfRangeIsRefused) {
    EXPECT_THROW(explore(story("broken-report"), 0), InvalidArgumentError);
    EXPECT_THROW(explore(story("broken-report"), 100'001), InvalidArgumentError);
    ScenarioFile unknown;
    unknown.story = "nope";
    EXPECT_THROW(explore(unknown, 10), InvalidArgumentError);
}
