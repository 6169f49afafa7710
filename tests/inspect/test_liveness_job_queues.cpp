// Is a BullMQ or Bull worker alive? Real workers (npm's bullmq 5 and bull 4, installed by
// scripts/install-npm-peers) process a long job on a real redis-server; the test reads the job's
// lock with LivenessReader while the worker runs, after it is paused (SIGSTOP, shorter than its
// lease) and after it is killed (kill -9), and through the CLI.
#include <gtest/gtest.h>

#include "cli_runner.h"
#include "liveness_support.h"
#include "lockscope/inspect/doctor.h"

namespace {

using namespace liveness_test;
using inspect::Verdict;
using lockscope::Connection;

constexpr int kLockMs = 12000;  // the worker's lockDuration: renewed every 6 s

inspect::LivenessOptions quickOptions() {
    inspect::LivenessOptions o;
    o.clientListEvery = 500ms;
    o.confirmAbsence = 1500ms;
    return o;
}

class JobQueueLiveness : public lockscope::testing::CliTest,
                         public ::testing::WithParamInterface<std::string> {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        connection_.emplace(connect());
        reader_ = std::make_unique<inspect::LivenessReader>(*connection_, quickOptions());
        if (!npmPeersInstalled())
            GTEST_SKIP() << "bullmq and bull are not installed: run ./scripts/install-npm-peers";
        worker_ = std::make_unique<HolderProcess>(std::vector<std::string>{
            "node", kPeers + "/job_queue_worker.js", kAdapters, GetParam(),
            std::to_string(server().port()), "reports", std::to_string(kLockMs), "600000"});
        auto id = worker_->waitFor("started ", 30s);
        ASSERT_TRUE(id) << "the " << GetParam() << " worker did not start its job";
        key_ = "bull:reports:" + *id + ":lock";
    }

    // Polls the lock every 300 ms until its verdict is `want` or `within` passes; every verdict
    // seen on the way goes to seen.
    std::optional<inspect::LockRecord> until(Verdict want, std::chrono::milliseconds within,
                                             std::vector<Verdict>* seen = nullptr) {
        auto deadline = std::chrono::steady_clock::now() + within;
        std::optional<inspect::LockRecord> last;
        while (std::chrono::steady_clock::now() < deadline) {
            last = judge(*connection_, *reader_, key_);
            if (last && last->liveness) {
                if (seen) seen->push_back(last->liveness->verdict);
                if (last->liveness->verdict == want) return last;
            }
            std::this_thread::sleep_for(300ms);
        }
        return last;
    }

    std::unique_ptr<HolderProcess> worker_;
    std::string key_;
    // Opened in SetUp(), once the fixture's server runs.
    std::optional<Connection> connection_;
    std::unique_ptr<inspect::LivenessReader> reader_;
};

TEST_P(JobQueueLiveness, KilledWorkerGoesFromAliveToGoneWithItsEvidence) {
    std::vector<Verdict> before;
    auto alive = until(Verdict::Alive, 15s, &before);
    ASSERT_TRUE(alive && alive->liveness);
    EXPECT_EQ(alive->kind,
              GetParam() == "bull" ? inspect::LockKind::Bull : inspect::LockKind::BullMQ);
    ASSERT_EQ(alive->liveness->verdict, Verdict::Alive) << evidenceText(*alive->liveness);
    EXPECT_NE(evidenceText(*alive->liveness).find("renewed with the same token"),
              std::string::npos);
    EXPECT_EQ(std::count(before.begin(), before.end(), Verdict::Gone), 0);

    worker_->killHard();
    const auto killedAt = std::chrono::steady_clock::now();
    auto gone = until(Verdict::Gone, std::chrono::milliseconds(kLockMs));
    ASSERT_TRUE(gone && gone->liveness) << "the lock expired before it was called gone";
    const std::string text = evidenceText(*gone->liveness);
    ASSERT_EQ(gone->liveness->verdict, Verdict::Gone) << text;
    EXPECT_NE(text.find("no connection named as a worker of queue \"reports\""), std::string::npos)
        << text;
    EXPECT_NE(text.find("in the active list"), std::string::npos) << text;
    EXPECT_LT(std::chrono::steady_clock::now() - killedAt, std::chrono::milliseconds(kLockMs));
}

TEST_P(JobQueueLiveness, PausedWorkerShorterThanItsLeaseIsNeverGone) {
    ASSERT_TRUE(until(Verdict::Alive, 15s));
    worker_->signal(SIGSTOP);
    std::vector<Verdict> seen;
    until(Verdict::Gone, 5s, &seen);  // paused for 5 s of its 12 s lease
    worker_->signal(SIGCONT);
    until(Verdict::Gone, 3s, &seen);
    EXPECT_FALSE(seen.empty());
    EXPECT_EQ(std::count(seen.begin(), seen.end(), Verdict::Gone), 0);
    auto again = until(Verdict::Alive, 6s);
    ASSERT_TRUE(again && again->liveness);
    EXPECT_EQ(again->liveness->verdict, Verdict::Alive);
}

TEST_P(JobQueueLiveness, AForgedWorkerNameHoldsGoneBack) {
    ASSERT_TRUE(until(Verdict::Alive, 15s));
    Connection forger = connect();
    forger.command({"CLIENT", "SETNAME", "bull:cmVwb3J0cw=="});  // base64("reports")
    worker_->killHard();
    std::vector<Verdict> seen;
    auto last = until(Verdict::Gone, 5s, &seen);
    EXPECT_EQ(std::count(seen.begin(), seen.end(), Verdict::Gone), 0);
    ASSERT_TRUE(last && last->liveness);
    EXPECT_NE(evidenceText(*last->liveness).find("one of them may hold it"), std::string::npos)
        << evidenceText(*last->liveness);
}

TEST_P(JobQueueLiveness, AMissingOrMalformedJobHashIsNeverGone) {
    worker_->killHard();
    auto jobKey = key_.substr(0, key_.size() - 5);
    observer().command({"HSET", jobKey, "processedOn", "yesterday"});
    std::vector<Verdict> seen;
    auto malformed = until(Verdict::Gone, 3s, &seen);
    ASSERT_TRUE(malformed && malformed->liveness);
    EXPECT_NE(evidenceText(*malformed->liveness).find("malformed"), std::string::npos);
    observer().command({"DEL", jobKey});
    auto missing = until(Verdict::Gone, 3s, &seen);
    ASSERT_TRUE(missing && missing->liveness);
    EXPECT_NE(evidenceText(*missing->liveness).find("does not exist"), std::string::npos);
    EXPECT_EQ(std::count(seen.begin(), seen.end(), Verdict::Gone), 0);
}

TEST_P(JobQueueLiveness, ClientListDeniedByAclIsUnknownSayingWhy) {
    observer().command({"ACL", "SETUSER", "nolist", "on", ">pw", "~*", "+@all", "-client"});
    auto endpoint = this->endpoint();
    endpoint.user = "nolist";
    endpoint.password = "pw";
    Connection limited = Connection::open(endpoint);
    inspect::LivenessReader reader(limited, quickOptions());
    worker_->killHard();
    for (int i = 0; i < 8; ++i) {
        auto r = judge(limited, reader, key_);
        ASSERT_TRUE(r && r->liveness);
        EXPECT_NE(r->liveness->verdict, Verdict::Gone);
        EXPECT_NE(evidenceText(*r->liveness).find("CLIENT LIST is denied"), std::string::npos)
            << evidenceText(*r->liveness);
        std::this_thread::sleep_for(300ms);
    }
}

TEST_P(JobQueueLiveness, CliListsTheOrphanWithItsEvidenceAndDoctorFindsIt) {
    auto all = cli({"list", "-u", url(), "--pattern", "bull:*:lock", "--json"});
    ASSERT_EQ(all.code, 0) << all.err;
    auto lines = jsonLines(all.out);
    ASSERT_EQ(lines.size(), 1u) << all.out;
    EXPECT_EQ(lines[0]["kind"], GetParam());
    EXPECT_NE(lines[0]["liveness"]["verdict"], "gone") << all.out;
    EXPECT_EQ(
        jsonLines(cli({"list", "-u", url(), "--pattern", "bull:*:lock", "--orphans", "--json"}).out)
            .size(),
        0u);

    worker_->killHard();
    auto orphans = cli({"list", "-u", url(), "--pattern", "bull:*:lock", "--orphans", "--json"});
    ASSERT_EQ(orphans.code, 0) << orphans.err;
    lines = jsonLines(orphans.out);
    ASSERT_EQ(lines.size(), 1u) << orphans.out;
    EXPECT_EQ(lines[0]["key"], key_);
    EXPECT_EQ(lines[0]["liveness"]["verdict"], "gone") << orphans.out;
    EXPECT_FALSE(lines[0]["liveness"]["evidence"].empty());
    auto findings = lines[0]["findings"];
    EXPECT_NE(std::find(findings.begin(), findings.end(), "orphaned"), findings.end());

    auto table = cli({"list", "-u", url(), "--pattern", "bull:*:lock", "--orphans"});
    EXPECT_NE(table.out.find("Why each holder is gone"), std::string::npos) << table.out;
    EXPECT_NE(table.out.find("no connection named as a worker"), std::string::npos) << table.out;

    auto doctor = cli({"doctor", "-u", url(), "--pattern", "bull:*:lock"});
    EXPECT_NE(doctor.out.find("(orphaned)"), std::string::npos) << doctor.out;
}

INSTANTIATE_TEST_SUITE_P(RealWorkers, JobQueueLiveness, ::testing::Values("bullmq", "bull"));

}  // namespace
