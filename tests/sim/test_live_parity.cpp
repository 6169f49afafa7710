// The same actors against a real redis-server and a real SQLite store, with virtual time
// scaled onto the steady clock: the beats (time, actor, command, reply, narration) and the
// outcome must equal the simulated run's, and the model must agree with every reply.

#include <chrono>

#include "live_parity_support.h"
#include "lockscope/errors.h"
#include "lockscope/lock_scripts.h"
#include "lockscope/script.h"
#include "lockscope/sim/live_replay.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::sim;
using lockscope::sim::testing::expectSameStory;
using lockscope::testing::RedisTest;

namespace {

class LiveParity : public RedisTest {
  protected:
    void expectParity(const std::string& name, int realMsPerVirtualSecond,
                      const std::vector<std::string>& sets = {}) {
        const Scenario& scenario = scenarioNamed(name);
        ScenarioParams params = scenario.defaults();
        for (const auto& s : sets) params.assign(s);
        RunResult simulated = runSimulated(scenario, params, 5);
        LiveOptions options;
        options.endpoint = endpoint();
        options.realMsPerVirtualSecond = realMsPerVirtualSecond;
        auto start = std::chrono::steady_clock::now();
        RunResult live = runLive(scenario, params, 5, options);
        auto took = std::chrono::steady_clock::now() - start;

        expectSameStory(live, simulated);
        // It really ran in scaled time, and left no key behind.
        VirtualMs end = simulated.recording.events.back().time;
        EXPECT_GE(took, std::chrono::microseconds(end * realMsPerVirtualSecond));
        EXPECT_EQ(keyCount(), 0);
    }
};

}  // namespace

TEST_F(LiveParity, BrokenReport) {
    expectParity("broken-report", 20);
}
TEST_F(LiveParity, FixedReport) {
    expectParity("fixed-report", 20);
}
TEST_F(LiveParity, ExpiryRace) {
    expectParity("expiry-race", 1000);
}
TEST_F(LiveParity, SetnxExpireCrash) {
    expectParity("setnx-expire-crash", 20);
}
TEST_F(LiveParity, GetThenDel) {
    expectParity("get-then-del", 1000);
}
TEST_F(LiveParity, AtomicCounter) {
    expectParity("atomic-counter", 1000);
}

// Issue 34: a second live run on the same server found the scripts the first one left in
// its cache, while the model started empty and expected NOSCRIPT. The model learns the
// server's cache, and the cache is left as it was: other clients of the server may rely on
// the scripts they loaded.
TEST_F(LiveParity, ASecondRunOnTheSameServerAgrees) {
    const Scenario& scenario = scenarioNamed("fixed-report");
    const ScenarioParams params = scenario.defaults();
    const RunResult simulated = runSimulated(scenario, params, 5);
    LiveOptions options;
    options.endpoint = endpoint();
    options.realMsPerVirtualSecond = 20;
    expectSameStory(runLive(scenario, params, 5, options), simulated);
    const std::string release = scripts::release().sha1();
    ASSERT_EQ(observer().command({"SCRIPT", "EXISTS", release})[0].integer(), 1);

    const RunResult again = runLive(scenario, params, 5, options);
    EXPECT_TRUE(again.divergences.empty()) << again.divergences.front();
    EXPECT_EQ(again.outcome, simulated.outcome);
    EXPECT_EQ(observer().command({"SCRIPT", "EXISTS", release})[0].integer(), 1);
    EXPECT_EQ(keyCount(), 0);
}

TEST_F(LiveParity, RefusesToTouchExistingKeys) {
    observer().command({"SET", "lock:report", "someone else's"});
    LiveOptions options;
    options.endpoint = endpoint();
    const Scenario& scenario = scenarioNamed("broken-report");
    try {
        runLive(scenario, scenario.defaults(), 1, options);
        FAIL() << "expected InvalidArgumentError";
    } catch (const InvalidArgumentError& e) {
        EXPECT_NE(std::string(e.what()).find("lock:report"), std::string::npos);
    }
    EXPECT_EQ(observer().command({"GET", "lock:report"}).text(), "someone else's");
}
