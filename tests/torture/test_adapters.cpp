// External clients through the adapter protocol, with the real libraries: redis-py's Lock
// (Debian's python3-redis) and node-redlock 4 over ioredis (npm, pinned in package.json).

#include <filesystem>

#include "lockscope/torture/report.h"
#include "torture_run_support.h"

namespace lockscope::torture {
namespace {

using testing::processGone;
using testing::shortRun;
using testing::startedPids;
using testing::tempPidFile;

const std::string kAdapters = TORTURE_ADAPTERS;

void expectPausesBreakIt(TortureOptions options) {
    options.pidFile = tempPidFile();
    TortureResult result = runTorture(options);
    SCOPED_TRACE(textReport(options, result));
    EXPECT_TRUE(result.notes.empty());
    EXPECT_GT(result.verdict.acquisitions, 2);  // node starts slowly on a loaded machine
    EXPECT_GT(result.verdict.faultsInjected["pause"], 0);
    // A TTL lock without a fence cannot stop a paused holder from writing late.
    EXPECT_GT(result.verdict.overlaps, 0);
    EXPECT_FALSE(result.verdict.staleWritesAccepted);  // no fence to judge by
    for (const Op& op : result.history) {
        if (op.process >= 0 && op.f == "acquire" && op.type == OpType::Ok) {
            EXPECT_FALSE(op.token.empty());
        }
    }
    for (pid_t pid : startedPids(options.pidFile)) EXPECT_TRUE(processGone(pid));
    std::filesystem::remove(options.pidFile);
}

TEST(TortureAdapters, RedisPyLockIsTorturedThroughItsAdapter) {
    TortureOptions options = shortRun("redis-py", "pause");
    options.adapterCommand = {"/usr/bin/python3", kAdapters + "/redis_py_lock.py"};
    expectPausesBreakIt(options);
}

TEST(TortureAdapters, NodeRedlockIsTorturedThroughItsAdapter) {
    // scripts/install-npm-peers installs it, with a time limit: an npm install here once
    // stalled on the registry until ctest's 300 s timeout.
    if (!std::filesystem::exists(kAdapters + "/node_modules/redlock"))
        GTEST_SKIP() << "node-redlock is not installed: run ./scripts/install-npm-peers";
    TortureOptions options = shortRun("node-redlock", "pause");
    options.adapterCommand = {"node", kAdapters + "/node_redlock.js"};
    options.nodes = 3;
    expectPausesBreakIt(options);
}

TEST(TortureAdapters, AnAdapterThatIsNotThereIsReported) {
    TortureOptions options = shortRun("ghost", "");
    options.duration = std::chrono::milliseconds(1000);
    options.adapterCommand = {"/nonexistent/adapter"};
    TortureResult result = runTorture(options);
    EXPECT_EQ(result.verdict.acquisitions, 0);
    bool reported = false;
    for (const Op& op : result.history)
        if (op.process >= 0 && op.type == OpType::Info &&
            op.detail.find("adapter") != std::string::npos)
            reported = true;
    EXPECT_TRUE(reported);
}

}  // namespace
}  // namespace lockscope::torture
