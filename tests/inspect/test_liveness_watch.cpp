// Is the holder alive, on the one watch engine (ServerWatch's liveness option): a real BullMQ
// or Bull worker holds a job's lock while a ServerWatch watches the server, as the window,
// `lockscope-cli watch` and the exporter do. Killed (kill -9), its row turns gone in a Rows
// event within the reader's confirm time, and the watch's own record says orphaned; paused
// for less than its lease, or left running, it is never called gone.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <thread>

#include "cli_runner.h"
#include "liveness_support.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "sentinel_fixture.h"
#include "server_watch_driver.h"

namespace {

using namespace liveness_test;
using inspect::Verdict;
using inspect::WatchEvent;
using lockscope::testing::lastRow;

constexpr int kLockMs = 12000;  // the worker's lockDuration: renewed every 6 s

inspect::LivenessOptions watchLiveness() {
    inspect::LivenessOptions o;
    o.clientListEvery = 500ms;
    o.confirmAbsence = 1500ms;
    o.reassessEvery = 300ms;
    return o;
}

// Every verdict the Rows events gave the key, in order (a row without one is left out).
std::vector<Verdict> verdictsOf(const std::vector<WatchEvent>& events, const std::string& key) {
    std::vector<Verdict> out;
    for (const auto& e : events)
        if (e.kind == WatchEvent::Kind::Rows)
            for (const auto& r : e.rows.changed)
                if (r.key == key && r.liveness) out.push_back(r.liveness->verdict);
    return out;
}

std::function<bool(const std::vector<WatchEvent>&)> verdictIs(const std::string& key,
                                                              Verdict want) {
    return [key, want](const std::vector<WatchEvent>& events) {
        auto seen = verdictsOf(events, key);
        return !seen.empty() && seen.back() == want;
    };
}

class WatchedJobQueueLiveness : public lockscope::testing::CliTest,
                                public ::testing::WithParamInterface<std::string> {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        if (!npmPeersInstalled())
            GTEST_SKIP() << "bullmq and bull are not installed: run ./scripts/install-npm-peers";
    }

    void startWorker(int lockMs, int port = 0) {
        worker_ = std::make_unique<HolderProcess>(
            std::vector<std::string>{"node", kPeers + "/job_queue_worker.js", kAdapters, GetParam(),
                                     std::to_string(port ? port : server().port()), "reports",
                                     std::to_string(lockMs), "600000"});
        auto id = worker_->waitFor("started ", 30s);
        ASSERT_TRUE(id) << "the " << GetParam() << " worker did not start its job";
        key_ = "bull:reports:" + *id + ":lock";
    }

    void startEngine(const std::optional<lockscope::Endpoint>& as = std::nullopt,
                     const std::optional<lockscope::SentinelTarget>& replicasOf = std::nullopt) {
        inspect::ServerWatchOptions options;
        options.endpoint = as ? *as : endpoint();
        options.sentinel = replicasOf;
        options.scanReplicas = replicasOf.has_value();
        options.watch.scan.patterns = {"bull:*:lock"};
        options.liveness = watchLiveness();
        engine_ = std::make_unique<inspect::ServerWatch>(options);
        driver_ = std::make_unique<lockscope::testing::ServerWatchDriver>(*engine_);
        driver_->open();
    }

    const inspect::LockRecord* tableRecord() const {
        auto nodes = engine_->nodes();
        if (nodes.empty() || !nodes.front().watch) return nullptr;
        return nodes.front().watch->table().find(key_);
    }

    std::unique_ptr<HolderProcess> worker_;
    std::string key_;
    std::unique_ptr<inspect::ServerWatch> engine_;
    std::unique_ptr<lockscope::testing::ServerWatchDriver> driver_;
};

TEST_P(WatchedJobQueueLiveness, KilledWorkersRowTurnsGoneWithinTheConfirmTime) {
    ASSERT_NO_FATAL_FAILURE(startWorker(kLockMs));
    startEngine();
    ASSERT_TRUE(driver_->runUntil(verdictIs(key_, Verdict::Alive), 20s))
        << "the watch never showed the running worker's lock alive";
    worker_->killHard();
    const auto killedAt = std::chrono::steady_clock::now();
    // Absent from two CLIENT LIST reads 1.5 s apart, read every 0.5 s, judged every 0.3 s.
    ASSERT_TRUE(driver_->runUntil(verdictIs(key_, Verdict::Gone), 8s))
        << "the killed worker's row never turned gone in a Rows event";
    EXPECT_LT(std::chrono::steady_clock::now() - killedAt, 8s);

    const auto* row = lastRow(driver_->events(), key_);
    ASSERT_TRUE(row && row->liveness);
    const std::string text = evidenceText(*row->liveness);
    EXPECT_NE(text.find("no connection named as a worker of queue \"reports\""), std::string::npos)
        << text;
    EXPECT_TRUE(row->findings & inspect::bit(inspect::RuleId::Orphaned));
    // The watch's own table (what the window and the exporter read) says so too.
    const auto* kept = tableRecord();
    ASSERT_TRUE(kept && kept->liveness);
    EXPECT_EQ(kept->liveness->verdict, Verdict::Gone);
    EXPECT_TRUE(kept->findings & inspect::bit(inspect::RuleId::Orphaned));
    // Never gone while the worker ran: the first gone comes after the last alive.
    auto seen = verdictsOf(driver_->events(), key_);
    auto lastAlive = std::find(seen.rbegin(), seen.rend(), Verdict::Alive);
    ASSERT_NE(lastAlive, seen.rend());
    EXPECT_EQ(std::count(seen.rbegin(), lastAlive, Verdict::Gone),
              std::count(seen.begin(), seen.end(), Verdict::Gone));
}

TEST_P(WatchedJobQueueLiveness, LiveOrPausedWorkerIsNeverGone) {
    ASSERT_NO_FATAL_FAILURE(startWorker(kLockMs));
    startEngine();
    ASSERT_TRUE(driver_->runUntil(verdictIs(key_, Verdict::Alive), 20s));
    driver_->runFor(4s);  // running: renewing every 6 s
    worker_->signal(SIGSTOP);
    driver_->runFor(5s);  // paused for 5 s of its 12 s lease
    worker_->signal(SIGCONT);
    driver_->runFor(4s);
    auto seen = verdictsOf(driver_->events(), key_);
    EXPECT_EQ(std::count(seen.begin(), seen.end(), Verdict::Gone), 0);
    const auto* kept = tableRecord();
    ASSERT_TRUE(kept && kept->liveness);
    EXPECT_NE(kept->liveness->verdict, Verdict::Gone) << evidenceText(*kept->liveness);
    EXPECT_FALSE(kept->findings & inspect::bit(inspect::RuleId::Orphaned));
}

// Scan replicas: the rows are read on a replica, whose CLIENT LIST names none of the workers
// (they connect to the primary). The holders are judged on the primary, so a running worker
// is never called gone, and a killed one still is.
TEST_P(WatchedJobQueueLiveness, ReadingAReplicaJudgesTheHoldersOnThePrimary) {
    lockscope::testing::SentinelGroup group;  // a primary, its replica, three Sentinels
    ASSERT_NO_FATAL_FAILURE(startWorker(kLockMs, group.server(0).port()));
    lockscope::Connection r = lockscope::Connection::open(group.server(1).endpoint());
    for (int i = 0; i < 100 && r.command({"EXISTS", key_}).integer() == 0; ++i)
        std::this_thread::sleep_for(50ms);
    ASSERT_EQ(r.command({"EXISTS", key_}).integer(), 1);
    startEngine(std::nullopt, group.target());
    driver_->runFor(6s);  // four confirm times with the worker running
    auto nodes = engine_->nodes();
    ASSERT_EQ(nodes.size(), 1u);
    ASSERT_TRUE(nodes.front().readsReplica) << "the watch did not read the replica";
    auto seen = verdictsOf(driver_->events(), key_);
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(std::count(seen.begin(), seen.end(), Verdict::Gone), 0)
        << "a running worker was called gone from the replica's CLIENT LIST";
    worker_->killHard();
    EXPECT_TRUE(driver_->runUntil(verdictIs(key_, Verdict::Gone), 8s));
}

// A user whom ACL denies CLIENT: the watch goes on, the killed worker's row stays unknown and
// says why, and is never called gone.
TEST_P(WatchedJobQueueLiveness, ClientListDeniedKeepsTheWatchGoingAndNeverSaysGone) {
    ASSERT_NO_FATAL_FAILURE(startWorker(kLockMs));
    observer().command({"ACL", "SETUSER", "nolist", "on", ">pw", "~*", "+@all", "-client"});
    auto limited = endpoint();
    limited.user = "nolist";
    limited.password = "pw";
    startEngine(limited);
    ASSERT_TRUE(driver_->runUntil(verdictIs(key_, Verdict::Unknown), 10s));
    worker_->killHard();
    driver_->runFor(5s);  // three times the confirm time
    auto seen = verdictsOf(driver_->events(), key_);
    EXPECT_EQ(std::count(seen.begin(), seen.end(), Verdict::Gone), 0);
    const auto* kept = tableRecord();
    ASSERT_TRUE(kept && kept->liveness);
    EXPECT_EQ(kept->liveness->verdict, Verdict::Unknown);
    EXPECT_NE(evidenceText(*kept->liveness).find("CLIENT LIST is denied"), std::string::npos)
        << evidenceText(*kept->liveness);
    auto nodes = engine_->nodes();
    ASSERT_EQ(nodes.size(), 1u);
    EXPECT_EQ(nodes.front().state, inspect::NodeState::Connected) << nodes.front().error;
}

// lockscope-cli watch with its defaults (CLIENT LIST every 10 s, absence confirmed over 3 s):
// the worker is killed 4 s in; its lock (a 60 s lease) turns gone in the output well before
// it expires. The worker's kill runs beside the command.
constexpr int kLongLockMs = 60000;

TEST_P(WatchedJobQueueLiveness, CliWatchJsonSaysTheHolderWentFromAliveToGone) {
    ASSERT_NO_FATAL_FAILURE(startWorker(kLongLockMs));
    std::thread killer([this] {
        std::this_thread::sleep_for(4s);
        worker_->killHard();
    });
    auto run = cli({"watch", "-u", url(), "--pattern", "bull:*:lock", "--json", "--for", "30"});
    killer.join();
    ASSERT_EQ(run.code, 0) << run.err;
    std::vector<std::string> verdicts;  // as the lines said them, in order
    for (const auto& line : jsonLines(run.out)) {
        if (line.value("key", "") != key_) continue;
        if (line["event"] == "added" && line.contains("liveness"))
            verdicts.push_back(line["liveness"]["verdict"]);
        if (line["event"] == "changed" && line["changed"].contains("liveness")) {
            const auto& liveness = line["changed"]["liveness"];
            verdicts.push_back(liveness["verdict"]);
            if (liveness["verdict"] == "gone") {
                EXPECT_NE(liveness["evidence"].dump().find("no connection named as a worker"),
                          std::string::npos)
                    << line.dump();
                EXPECT_NE(line["changed"]["findings"].dump().find("orphaned"), std::string::npos)
                    << line.dump();
            }
        }
    }
    ASSERT_FALSE(verdicts.empty()) << run.out;
    EXPECT_NE(verdicts.front(), "gone") << run.out;
    EXPECT_EQ(verdicts.back(), "gone") << run.out;
}

TEST_P(WatchedJobQueueLiveness, CliWatchTableMarksTheOrphanAndSaysWhy) {
    if (GetParam() != "bullmq") GTEST_SKIP() << "the table is the same for both libraries";
    ASSERT_NO_FATAL_FAILURE(startWorker(kLongLockMs));
    std::thread killer([this] {
        std::this_thread::sleep_for(4s);
        worker_->killHard();
    });
    auto run = cli({"watch", "-u", url(), "--pattern", "bull:*:lock", "--for", "28"});
    killer.join();
    ASSERT_EQ(run.code, 0) << run.err;
    const auto firstGone = run.out.find("[gone]");
    ASSERT_NE(firstGone, std::string::npos) << run.out;
    // Before the kill was confirmed the row said otherwise (alive, or unknown before a renewal).
    EXPECT_LT(std::min(run.out.find("[alive]"), run.out.find("[unknown]")), firstGone) << run.out;
    EXPECT_NE(run.out.find("Why each holder is gone:", firstGone), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("no connection named as a worker", firstGone), std::string::npos);

    auto off =
        cli({"watch", "-u", url(), "--pattern", "bull:*:lock", "--for", "1", "--no-liveness"});
    ASSERT_EQ(off.code, 0) << off.err;
    EXPECT_EQ(off.out.find("[gone]"), std::string::npos) << off.out;
}

INSTANTIATE_TEST_SUITE_P(RealWorkers, WatchedJobQueueLiveness, ::testing::Values("bullmq", "bull"));

}  // namespace
