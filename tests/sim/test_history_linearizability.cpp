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

// Issue 34, item 4: histories a checker can trust. An outcome the client cannot know is
// :info, completions carry the time the client learned the outcome, and every actor that
// takes or releases the lock is in the history.
namespace {

nlohmann::json historyOf(Replay& replay) {
    return nlohmann::json::parse(historyToJson(lockHistory(replay.recording())));
}

// The completion of `actor`'s n-th operation `f` (0-based).
nlohmann::json completionOf(const nlohmann::json& history, const std::string& actor,
                            const std::string& f, int n = 0) {
    for (const auto& e : history)
        if (e.at("actor") == actor && e.at("f") == f && e.at("type") != "invoke" && n-- == 0)
            return e;
    return nullptr;
}

constexpr std::int64_t kNsPerMs = 1'000'000;

}  // namespace

TEST(HistoryLinearizability, AnInfoOperationMayTakeEffectOrNot) {
    // The acquire's outcome is unknown; the release that succeeded says it took effect.
    EXPECT_TRUE(linearizableAsLock(
        nlohmann::json::array({op("invoke", 0, "acquire", 0), op("info", 0, "acquire", 5),
                               op("invoke", 0, "release", 6), op("ok", 0, "release", 7)})));
    // Here it never took effect: another process acquires and releases meanwhile.
    EXPECT_TRUE(linearizableAsLock(nlohmann::json::array(
        {op("invoke", 0, "acquire", 0), op("info", 0, "acquire", 5), op("invoke", 1, "acquire", 6),
         op("ok", 1, "acquire", 7), op("invoke", 1, "release", 8), op("ok", 1, "release", 9)})));
    // Read as :ok, the first history is the same; read as :fail, the release cannot succeed.
    EXPECT_FALSE(linearizableAsLock(
        nlohmann::json::array({op("invoke", 0, "acquire", 0), op("fail", 0, "acquire", 5),
                               op("invoke", 0, "release", 6), op("ok", 0, "release", 7)})));
}

TEST(HistoryLinearizability, AnOperatorsReleaseFreesTheHolderItNames) {
    auto release = op("invoke", 1, "release", 2);
    release["value"] = 0;
    auto released = op("ok", 1, "release", 3);
    released["value"] = 0;
    const nlohmann::json history =
        nlohmann::json::array({op("invoke", 0, "acquire", 0), op("ok", 0, "acquire", 1), release,
                               released, op("invoke", 2, "acquire", 4), op("ok", 2, "acquire", 5)});
    EXPECT_TRUE(linearizableAsLock(history));
    // Without the :value, process 1 releases a lock it does not hold.
    nlohmann::json anonymous = history;
    anonymous[2]["value"] = nullptr;
    anonymous[3]["value"] = nullptr;
    EXPECT_FALSE(linearizableAsLock(anonymous));
}

TEST(HistoryLinearizability, ACrashedClientsAcquireIsInfoAtTheCrash) {
    Replay replay("redlock-gc-pause");
    replay.crashInstanceAt("client1", 2);  // after its SETs, before it counts the replies
    const auto history = historyOf(replay);
    const auto acquired = completionOf(history, "client1", "acquire");
    EXPECT_EQ(acquired.at("type"), "info") << history.dump(1);
    EXPECT_EQ(acquired.at("time"), 2 * kNsPerMs);
    EXPECT_TRUE(linearizableAsLock(history));
}

TEST(HistoryLinearizability, ARedlockAcquireCompletesWhenTheRepliesAreCounted) {
    Replay replay("redlock-gc-pause");  // latency 5 ms
    const auto history = historyOf(replay);
    EXPECT_EQ(completionOf(history, "client1", "acquire").at("time"), 5 * kNsPerMs);
    EXPECT_EQ(completionOf(history, "client2", "acquire").at("time"), 12005 * kNsPerMs);
    EXPECT_FALSE(linearizableAsLock(history));  // the story's two holders
}

TEST(HistoryLinearizability, RepliesLaterThanTheTimeoutLeaveTheAcquireUnknown) {
    ScenarioParams params = scenarioNamed("redlock-gc-pause").defaults();
    params.set("latency_ms", 40);
    params.set("node_timeout_ms", 30);
    Replay replay("redlock-gc-pause", params);
    const auto history = historyOf(replay);
    // The nodes ran the SET; the client gave up at 30 ms and released: ok on every node.
    EXPECT_EQ(completionOf(history, "client1", "acquire").at("type"), "info") << history.dump(1);
    EXPECT_EQ(completionOf(history, "client1", "acquire").at("time"), 30 * kNsPerMs);
    EXPECT_EQ(completionOf(history, "client1", "release").at("type"), "ok");
    EXPECT_TRUE(linearizableAsLock(history));
}

TEST(HistoryLinearizability, AShortWaitLeavesTheAcquireUnknown) {
    ScenarioParams params = scenarioNamed("failover").defaults();
    params.set("wait", 1);
    Replay replay("failover", params);
    ASSERT_FALSE(replay.outcome().broken.mutualExclusion);
    const auto history = historyOf(replay);
    const auto acquired = completionOf(history, "client1", "acquire");
    EXPECT_EQ(acquired.at("type"), "info") << history.dump(1);
    EXPECT_EQ(acquired.at("time"), 50 * kNsPerMs);  // when WAIT 1 50 returned
    EXPECT_TRUE(linearizableAsLock(history)) << history.dump(1);
}

TEST(HistoryLinearizability, TheOperatorsReleaseIsInTheHistory) {
    Replay replay("setnx-expire-crash");
    const auto history = historyOf(replay);
    const auto released = completionOf(history, "operator", "release");
    ASSERT_FALSE(released.is_null()) << history.dump(1);
    EXPECT_EQ(released.at("type"), "ok");
    EXPECT_EQ(released.at("value"), 0);  // A's lock: A is process 0
    EXPECT_TRUE(linearizableAsLock(history)) << history.dump(1);
}

// Done-when of item 4: a run that keeps mutual exclusion exports a history the mutex checker
// accepts, and one that breaks it a history the checker rejects: every story as written and
// with its fix, and the variants.
TEST(HistoryLinearizability, TheCheckerAgreesWithEveryStorysMutualExclusion) {
    std::vector<std::pair<std::string, ScenarioParams>> runs;
    for (const Scenario& s : scenarios()) {
        runs.emplace_back(s.name, s.defaults());
        if (s.fixedBy.empty()) continue;
        ScenarioParams fixed = s.defaults();
        fixed.assign(s.fixedBy);
        runs.emplace_back(s.name + " " + s.fixedBy, fixed);
    }
    for (const auto& [label, params] : runs) {
        SCOPED_TRACE(label);
        Replay replay(label.substr(0, label.find(' ')), params);
        const auto history = historyOf(replay);
        EXPECT_EQ(linearizableAsLock(history), !replay.outcome().broken.mutualExclusion)
            << history.dump(1);
    }
}
