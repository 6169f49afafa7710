// The --history export checked by an independent linearizability checker: a hand-written
// Wing & Gong search over a lock model (linearizability_check.h; no maintained checker
// installs here). The checker is first shown to tell concurrent histories apart; then the
// stories' exported JSON histories are read back and checked: a lock used as the guide
// uses it is linearizable, the broken release and the expiry race are not.

#include <gtest/gtest.h>

#include "linearizability_check.h"
#include "lockscope/sim/jepsen_history.h"
#include "lockscope/sim/replay.h"

using namespace lockscope;
using namespace lockscope::sim;
using lockscope::testing::linearizableAsLock;

namespace {

nlohmann::json op(const char* type, int process, const char* f, std::int64_t time) {
    return {{"type", type}, {"process", process}, {"f", f}, {"value", nullptr}, {"time", time}};
}

nlohmann::json exported(const std::string& story,
                        const std::vector<std::pair<std::string, std::int64_t>>& changed = {}) {
    ScenarioParams params = scenarioNamed(story).defaults();
    for (const auto& [name, value] : changed) params.set(name, value);
    Replay replay(story, params);
    return nlohmann::json::parse(historyToJson(lockHistory(replay.recording())));
}

}  // namespace

TEST(HistoryLinearizability, TheCheckerOrdersConcurrentOperations) {
    // 0 and 1 both try at once, 1 wins; 0's failure is explained by ordering 1 first.
    EXPECT_TRUE(linearizableAsLock(nlohmann::json::array(
        {op("invoke", 0, "acquire", 0), op("invoke", 1, "acquire", 1), op("fail", 0, "acquire", 5),
         op("ok", 1, "acquire", 6), op("invoke", 1, "release", 7), op("ok", 1, "release", 8)})));
    // A release that overlaps another's acquire: the acquire may take effect after it.
    EXPECT_TRUE(linearizableAsLock(nlohmann::json::array(
        {op("invoke", 0, "acquire", 0), op("ok", 0, "acquire", 1), op("invoke", 1, "acquire", 2),
         op("invoke", 0, "release", 3), op("ok", 0, "release", 4), op("ok", 1, "acquire", 5)})));
}

TEST(HistoryLinearizability, TheCheckerRejectsTwoHoldersAndAForeignRelease) {
    // 1 acquires after 0 did and before 0 released: no order explains it.
    EXPECT_FALSE(linearizableAsLock(nlohmann::json::array(
        {op("invoke", 0, "acquire", 0), op("ok", 0, "acquire", 1), op("invoke", 1, "acquire", 2),
         op("ok", 1, "acquire", 3), op("invoke", 0, "release", 4), op("ok", 0, "release", 5)})));
    // 1 releases 0's lock.
    EXPECT_FALSE(linearizableAsLock(
        nlohmann::json::array({op("invoke", 0, "acquire", 0), op("ok", 0, "acquire", 1),
                               op("invoke", 1, "release", 2), op("ok", 1, "release", 3)})));
    // A failed acquire while no one can have held the lock.
    EXPECT_FALSE(linearizableAsLock(
        nlohmann::json::array({op("invoke", 0, "acquire", 0), op("fail", 0, "acquire", 1)})));
}

TEST(HistoryLinearizability, ALockAroundEachUpdateIsLinearizable) {
    const auto history = exported("atomic-counter", {{"mode", 1}});
    ASSERT_GT(history.size(), 8u);
    EXPECT_TRUE(linearizableAsLock(history)) << history.dump(1);
}

TEST(HistoryLinearizability, TheGetThenDelReleaseIsNot) {
    EXPECT_FALSE(linearizableAsLock(exported("get-then-del")));
}

TEST(HistoryLinearizability, TheExpiryRaceIsNot) {
    // a's lock expired under it: b's acquire succeeds while a never released.
    EXPECT_FALSE(linearizableAsLock(exported("expiry-race")));
}
