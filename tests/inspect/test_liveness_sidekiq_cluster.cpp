// Issue 35 item 7 ("the Sidekiq Digest tab says 'no job holds it' when LOCKED is on another
// node"): on a Redis Cluster, Sidekiq's keys (processes, each process's hash and work,
// queues, schedule, retry, dead) live in other slots than a sidekiq-unique-jobs LOCKED hash,
// usually on other primaries. The liveness reader reads each from its slot's owner; without a
// way to reach them it says unknown (partial evidence), never that the job is nowhere.
// Sidekiq itself cannot run against a cluster (its heartbeat is a MULTI across slots), so its
// keys are written here in the shapes Sidekiq 6.4 writes (see test_liveness_sidekiq.cpp for
// the real process on one server).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "cluster_fixture.h"
#include "inspect/liveness/key_reads.h"
#include "liveness_support.h"
#include "lockscope/inspect/cluster/cluster_router.h"

namespace {

using namespace liveness_test;
using inspect::Verdict;
using lockscope::testing::RedisCluster;

constexpr const char* kIdentity = "worker-7:4242:0f1e2d3c4b5a";
constexpr const char* kJid = "b4e6c1a2d3f40516a7b8c9d0";

std::string nowSeconds() {
    return std::to_string(std::chrono::duration_cast<std::chrono::seconds>(
                              std::chrono::system_clock::now().time_since_epoch())
                              .count());
}

class SidekiqOnCluster : public ::testing::Test {
  protected:
    void SetUp() override {
        lockedKey_ = lockedOtherThanProcesses();
        auto on = [&](const std::string& key, std::vector<std::string> argv) {
            std::vector<std::string_view> views(argv.begin(), argv.end());
            cluster_.connect(cluster_.primaryFor(key))
                .command(lockscope::Connection::Argv(views.data(), views.size()));
        };
        // A live process (its hash exists: it beat within 60 s) running the job.
        const std::string identity = kIdentity;
        on("processes", {"SADD", "processes", identity});
        on(identity, {"HSET", identity, "info", R"({"hostname":"worker-7","pid":4242})", "beat",
                      nowSeconds(), "busy", "1"});
        on(identity, {"EXPIRE", identity, "60"});
        const std::string payload = R"({"class":"ReportJob","args":[60],"jid":")" +
                                    std::string(kJid) + R"(","queue":"default"})";
        nlohmann::json work = {
            {"queue", "default"}, {"payload", payload}, {"run_at", std::stoll(nowSeconds())}};
        on(identity + ":workers", {"HSET", identity + ":workers", "tid-1", work.dump()});
        on("queues", {"SADD", "queues", "default"});
        // The lock that job holds.
        on(lockedKey_, {"HSET", lockedKey_, kJid, nowSeconds() + ".25"});
        on(lockedKey_, {"EXPIRE", lockedKey_, "600"});
    }

    // A LOCKED key whose slot another primary than `processes`'s serves.
    std::string lockedOtherThanProcesses() {
        for (int i = 0;; ++i) {
            std::string key = "uniquejobs:digest" + std::to_string(i) + ":LOCKED";
            if (cluster_.primaryFor(key) != cluster_.primaryFor("processes") &&
                cluster_.primaryFor(key) !=
                    cluster_.primaryFor(std::string(kIdentity) + ":workers"))
                return key;
        }
    }

    // The verdict of the LOCKED hash, read on its own node.
    std::shared_ptr<const inspect::HolderVerdict> judgeOnLockNode(
        const inspect::LivenessOptions& options) {
        lockscope::Connection node = cluster_.connect(cluster_.primaryFor(lockedKey_));
        inspect::LivenessReader reader(node, options);
        std::shared_ptr<const inspect::HolderVerdict> last;
        for (int pass = 0; pass < 3; ++pass) {  // a job "nowhere" must stay so: look again
            auto r = judge(node, reader, lockedKey_);
            EXPECT_TRUE(r && r->liveness);
            if (!r || !r->liveness) return nullptr;
            EXPECT_EQ(r->kind, inspect::LockKind::SidekiqUniqueJobs);
            last = r->liveness;
            EXPECT_NE(last->verdict, Verdict::Gone) << evidenceText(*last);
            std::this_thread::sleep_for(50ms);
        }
        return last;
    }

    RedisCluster cluster_;
    std::string lockedKey_;
};

TEST_F(SidekiqOnCluster, TheRunningJobIsFoundOnTheNodesThatServeSidekiqsKeys) {
    auto router = std::make_shared<inspect::ClusterRouter>(cluster_.endpoint(0),
                                                           lockscope::ConnectionOptions{});
    ASSERT_TRUE(router->isCluster());
    inspect::LivenessOptions options;
    options.keysElsewhere = std::make_shared<inspect::RoutedKeyReads>(router);
    auto verdict = judgeOnLockNode(options);
    ASSERT_TRUE(verdict);
    EXPECT_EQ(verdict->verdict, Verdict::Alive) << evidenceText(*verdict);
    EXPECT_NE(evidenceText(*verdict).find("running on worker-7:4242"), std::string::npos)
        << evidenceText(*verdict);
}

TEST_F(SidekiqOnCluster, AJobInTheDeadSetOnAnotherNodeIsPositiveEvidence) {
    // The job died: out of the process's work, into `dead` (scored by when it died).
    const std::string identity = kIdentity;
    cluster_.connect(cluster_.primaryFor(identity + ":workers"))
        .command({"DEL", identity + ":workers"});
    const std::string payload = R"({"class":"ReportJob","jid":")" + std::string(kJid) + R"("})";
    cluster_.connect(cluster_.primaryFor("dead")).command({"ZADD", "dead", nowSeconds(), payload});
    auto router = std::make_shared<inspect::ClusterRouter>(cluster_.endpoint(0),
                                                           lockscope::ConnectionOptions{});
    ASSERT_TRUE(router->isCluster());
    inspect::LivenessOptions options;
    options.keysElsewhere = std::make_shared<inspect::RoutedKeyReads>(router);
    lockscope::Connection node = cluster_.connect(cluster_.primaryFor(lockedKey_));
    inspect::LivenessReader reader(node, options);
    auto r = judge(node, reader, lockedKey_);
    ASSERT_TRUE(r && r->liveness);
    EXPECT_EQ(r->liveness->verdict, Verdict::Gone) << evidenceText(*r->liveness);
    EXPECT_NE(evidenceText(*r->liveness).find("dead set"), std::string::npos)
        << evidenceText(*r->liveness);
}

// lockscope-cli's standard output (stderr dropped) and exit code.
std::pair<int, std::string> runCli(const std::string& args) {
    const std::string cmd = std::string(LOCKSCOPE_CLI) + " " + args + " 2>/dev/null";
    std::string out;
    std::FILE* p = popen(cmd.c_str(), "r");
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    const int status = pclose(p);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// The CLI's one look (list --json) judges each node's locks with the keys of other slots read
// from their owners too, as a watch does: the job is found running, not left unknown.
TEST_F(SidekiqOnCluster, ListJsonFindsTheRunningJobOnTheOtherNodes) {
    const auto [code, out] =
        runCli("list --json --pattern 'uniquejobs:*' -u '" + cluster_.url(0) + "'");
    ASSERT_EQ(code, 0) << out;
    std::istringstream lines(out);
    std::optional<nlohmann::json> locked;
    for (std::string line; std::getline(lines, line);)
        if (!line.empty())
            if (auto j = nlohmann::json::parse(line); j.value("key", "") == lockedKey_) locked = j;
    ASSERT_TRUE(locked) << out;
    ASSERT_TRUE(locked->contains("liveness")) << locked->dump();
    const auto& liveness = (*locked)["liveness"];
    EXPECT_EQ(liveness.value("verdict", ""), "alive") << liveness.dump();
    EXPECT_NE(liveness.dump().find("running on worker-7:4242"), std::string::npos)
        << liveness.dump();
}

TEST_F(SidekiqOnCluster, WithoutTheOtherNodesItIsUnknownNeverNowhere) {
    inspect::LivenessOptions options;  // no router: the lock's node alone
    options.sidekiqNowhereFor = 0ms;   // "nowhere" would be called gone at once
    auto verdict = judgeOnLockNode(options);
    ASSERT_TRUE(verdict);
    EXPECT_EQ(verdict->verdict, Verdict::Unknown) << evidenceText(*verdict);
    EXPECT_EQ(evidenceText(*verdict).find("is not running, queued"), std::string::npos)
        << evidenceText(*verdict);
}

}  // namespace
