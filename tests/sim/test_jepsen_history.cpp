// The Jepsen-shaped lock history (--history): well-formed (every invoke completed by the
// same process, indexes in order, times in nanoseconds), the same operations as JSON and as
// EDN, and telling: the expiry race's history is one a mutex checker rejects.

#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "lockscope/errors.h"
#include "lockscope/sim/jepsen_history.h"
#include "lockscope/sim/replay.h"

using namespace lockscope;
using namespace lockscope::sim;

namespace {

std::vector<HistoryOp> historyOf(const std::string& story) {
    Replay replay(story);
    return lockHistory(replay.recording());
}

// Knossos's mutex model on a history whose operations complete at once: an acquire may only
// succeed while no one holds the lock, a release only by... anyone (the model is a plain
// mutex); returns the index of the first completion the model cannot explain, or -1.
int firstMutexViolation(const std::vector<HistoryOp>& history) {
    bool locked = false;
    for (const HistoryOp& op : history) {
        if (op.type != HistoryType::Ok) continue;
        if (op.f == "acquire") {
            if (locked) return op.index;
            locked = true;
        } else if (op.f == "release") {
            if (!locked) return op.index;
            locked = false;
        }
    }
    return -1;
}

std::string slurp(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST(JepsenHistory, EveryStoryGivesAWellFormedHistory) {
    for (const Scenario& scenario : scenarios()) {
        SCOPED_TRACE(scenario.name);
        auto history = historyOf(scenario.name);
        std::map<int, const HistoryOp*> pending;
        std::int64_t lastTime = 0;
        for (std::size_t i = 0; i < history.size(); ++i) {
            const HistoryOp& op = history[i];
            EXPECT_EQ(op.index, static_cast<int>(i));
            EXPECT_GE(op.timeNs, lastTime);
            EXPECT_EQ(op.timeNs % 1'000'000, 0);
            lastTime = op.timeNs;
            EXPECT_TRUE(op.f == "acquire" || op.f == "release") << op.f;
            if (op.type == HistoryType::Invoke) {
                EXPECT_FALSE(pending.count(op.process)) << "process " << op.process;
                pending[op.process] = &op;
            } else {
                ASSERT_TRUE(pending.count(op.process)) << "completion without invoke " << i;
                EXPECT_EQ(pending[op.process]->f, op.f);
                pending.erase(op.process);
            }
        }
        EXPECT_TRUE(pending.empty());
    }
}

TEST(JepsenHistory, TheExpiryRaceBreaksTheMutexModel) {
    auto history = historyOf("expiry-race");
    ASSERT_FALSE(history.empty());
    EXPECT_GE(firstMutexViolation(history), 0);
}

TEST(JepsenHistory, ARedlockRoundIsOneOperation) {
    Replay replay("redlock-gc-pause");
    auto history = lockHistory(replay.recording());
    // Five SETs per acquire round in the transcript, one :invoke per round in the history.
    int setCommands = 0, invokes = 0;
    for (const auto& e : replay.recording().events)
        setCommands += e.kind == EventKind::Command && e.lockOp == "acquire";
    for (const auto& op : history) invokes += op.type == HistoryType::Invoke && op.f == "acquire";
    EXPECT_GT(invokes, 0);
    EXPECT_EQ(setCommands, invokes * 5);
}

TEST(JepsenHistory, JsonAndEdnCarryTheSameOperations) {
    auto history = historyOf("broken-report");
    ASSERT_FALSE(history.empty());
    const auto dir = std::filesystem::temp_directory_path();
    const auto json = dir / ("lockscope-history-" + std::to_string(::getpid()) + ".json");
    const auto edn = dir / ("lockscope-history-" + std::to_string(::getpid()) + ".edn");
    writeHistoryFile(json.string(), history);
    writeHistoryFile(edn.string(), history);
    auto parsed = nlohmann::json::parse(slurp(json));
    std::string ednText = slurp(edn);
    std::filesystem::remove(json);
    std::filesystem::remove(edn);
    ASSERT_TRUE(parsed.is_array());
    ASSERT_EQ(parsed.size(), history.size());
    std::istringstream lines(ednText);
    std::string line;
    for (std::size_t i = 0; i < history.size(); ++i) {
        const HistoryOp& op = history[i];
        EXPECT_EQ(parsed[i]["type"], toString(op.type));
        EXPECT_EQ(parsed[i]["process"], op.process);
        EXPECT_EQ(parsed[i]["f"], op.f);
        EXPECT_TRUE(parsed[i]["value"].is_null());
        EXPECT_EQ(parsed[i]["time"], op.timeNs);
        ASSERT_TRUE(std::getline(lines, line));
        EXPECT_EQ(line, "{:type :" + std::string(toString(op.type)) + ", :process " +
                            std::to_string(op.process) + ", :f :" + op.f + ", :value nil, :time " +
                            std::to_string(op.timeNs) + ", :index " + std::to_string(op.index) +
                            ", :key \"" + op.key + "\", :actor \"" + op.actor + "\"}");
    }
    EXPECT_FALSE(std::getline(lines, line));
}

TEST(JepsenHistory, AnUnwritablePathIsRefused) {
    EXPECT_THROW(writeHistoryFile("/nonexistent/dir/h.edn", {}), InvalidArgumentError);
}
