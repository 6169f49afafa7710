// The exporter's orphan gauges on a real killed worker: a real BullMQ worker (npm, installed by
// scripts/install-npm-peers) holds its job's lock with a 60 s lease while the exporter takes
// censuses; killed (kill -9), lockscope_orphaned_locks{kind="bullmq"} goes from 0 to 1 with the
// exporter's own liveness defaults (CLIENT LIST every 10 s, absence confirmed over 3 s), long
// before the lock expires; a guide lock nobody names is counted as unknown, never orphaned.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "liveness_support.h"
#include "lockscope/exporter/lock_exporter.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::exporter;
using namespace std::chrono_literals;

namespace {

// The value of the one series whose line starts with `series` ("name{labels}"); -1: absent.
double valueOf(const std::string& text, const std::string& series) {
    auto at = text.find("\n" + series + " ");
    if (at == std::string::npos) return -1;
    return std::stod(text.substr(at + series.size() + 2));
}

class ExporterOrphans : public lockscope::testing::RedisTest {
  protected:
    std::string labels(const std::string& kind) const {
        return R"({instance=")" + endpoint().display() + R"(",node=")" + endpoint().display() +
               R"(",kind=")" + kind + R"("})";
    }
};

TEST_F(ExporterOrphans, KilledBullMqWorkersLockIsCountedOrphaned) {
    if (!liveness_test::npmPeersInstalled())
        GTEST_SKIP() << "bullmq is not installed: run ./scripts/install-npm-peers";
    liveness_test::HolderProcess worker(
        {"node", liveness_test::kPeers + "/job_queue_worker.js", liveness_test::kAdapters, "bullmq",
         std::to_string(server().port()), "reports", "60000", "600000"});
    ASSERT_TRUE(worker.waitFor("started ", 30s)) << "the BullMQ worker did not start its job";
    Connection c = connect();
    c.command({"SET", "lock:{nightly}", std::string(32, 'a'), "PX", "120000"});

    ExporterOptions options;
    options.listen = "127.0.0.1:0";
    options.instances = {endpoint()};
    options.scan.patterns = {"bull:*:lock", "lock:*"};
    options.interval = 3600s;  // the test drives the censuses
    LockExporter exporter(options);
    exporter.censusOnce();
    std::string text = exporter.scrapeText();
    EXPECT_EQ(valueOf(text, "lockscope_orphaned_locks" + labels("bullmq")), 0) << text;
    EXPECT_EQ(valueOf(text, "lockscope_orphaned_locks" + labels("guide")), 0) << text;
    EXPECT_EQ(valueOf(text, "lockscope_holder_unknown_locks" + labels("guide")), 1) << text;

    worker.killHard();
    const auto killedAt = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - killedAt < 40s) {
        exporter.censusOnce();
        text = exporter.scrapeText();
        if (valueOf(text, "lockscope_orphaned_locks" + labels("bullmq")) == 1) break;
        std::this_thread::sleep_for(500ms);
    }
    EXPECT_EQ(valueOf(text, "lockscope_orphaned_locks" + labels("bullmq")), 1) << text;
    // Within BullMQ's own stall check (its lock's 60 s here) and long before the key expires.
    EXPECT_LT(std::chrono::steady_clock::now() - killedAt, 35s);
    EXPECT_EQ(valueOf(text, "lockscope_orphaned_locks" + labels("guide")), 0) << text;
    EXPECT_EQ(
        valueOf(text, R"(lockscope_findings{instance=")" + endpoint().display() + R"(",node=")" +
                          endpoint().display() + R"(",kind="bullmq",finding="orphaned"})"),
        1)
        << text;
}

}  // namespace
