// Bad input is refused with a message that names what is wrong.

#include <gtest/gtest.h>

#include "lockscope/errors.h"
#include "lockscope/sim/live_replay.h"
#include "lockscope/sim/scenario.h"
#include "lockscope/sim/simulator.h"

using namespace lockscope;
using namespace lockscope::sim;

namespace {

std::string errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InvalidArgumentError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST(Params, UnknownScenarioNamesTheKnownOnes) {
    std::string message = errorOf([] { scenarioNamed("nope"); });
    EXPECT_NE(message.find("unknown scenario \"nope\""), std::string::npos) << message;
    EXPECT_NE(message.find("broken-report"), std::string::npos) << message;
}

TEST(Params, ValuesAreCheckedAgainstTheirRange) {
    ScenarioParams p = scenarioNamed("broken-report").defaults();
    EXPECT_NE(errorOf([&] { p.assign("bogus=1"); }).find("unknown parameter \"bogus\""),
              std::string::npos);
    EXPECT_NE(errorOf([&] { p.assign("instances=0"); }).find("out of range 1..8"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { p.assign("lock_ttl_s=-5"); }).find("out of range"), std::string::npos);
    EXPECT_NE(errorOf([&] { p.assign("chunks=99999999999999999999999"); }).find("needs an integer"),
              std::string::npos);
    EXPECT_NE(errorOf([&] { p.assign("chunks=ten"); }).find("needs an integer"), std::string::npos);
    EXPECT_NE(errorOf([&] { p.assign("chunks=1x"); }).find("needs an integer"), std::string::npos);
    EXPECT_NE(errorOf([&] { p.assign("chunks="); }).find("needs an integer"), std::string::npos);
    EXPECT_NE(errorOf([&] { p.assign("=3"); }).find("name=value"), std::string::npos);
    EXPECT_NE(errorOf([&] { p.assign("chunks"); }).find("name=value"), std::string::npos);
    p.assign("chunks=12");
    EXPECT_EQ(p.get("chunks"), 12);
    EXPECT_EQ(p.get("instances"), 3);  // failed assignments changed nothing
}

TEST(Params, FaultsMustNameAnExistingInstance) {
    const Scenario& s = scenarioNamed("broken-report");
    ScenarioParams p = s.defaults();
    p.assign("instances=2");
    p.assign("crash_instance=3");
    std::string message = errorOf([&] { runSimulated(s, p, 1); });
    EXPECT_NE(message.find("only 2 instances"), std::string::npos) << message;
}

TEST(Params, ExtremeButValidValuesStillFinish) {
    const Scenario& s = scenarioNamed("broken-report");
    ScenarioParams p = s.defaults();
    for (const auto& spec : s.params) p.set(spec.name, spec.max);
    RunResult run = runSimulated(s, p, 1);  // bounded by the simulator's horizon
    EXPECT_LE(run.recording.beats.back().time, Simulator::kHorizon);
    for (const auto& spec : s.params) p.set(spec.name, spec.min);
    EXPECT_NO_THROW(runSimulated(s, p, 1));
}

TEST(Params, EveryScenarioListsDescribedParametersWithSaneDefaults) {
    for (const auto& s : scenarios()) {
        EXPECT_FALSE(s.title.empty());
        EXPECT_FALSE(s.summary.empty());
        for (const auto& p : s.params) {
            EXPECT_FALSE(p.description.empty()) << s.name << " " << p.name;
            EXPECT_LE(p.min, p.defaultValue) << s.name << " " << p.name;
            EXPECT_LE(p.defaultValue, p.max) << s.name << " " << p.name;
        }
    }
}
