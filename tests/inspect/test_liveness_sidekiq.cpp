// Is a Sidekiq job that holds a sidekiq-unique-jobs lock alive? A real Sidekiq 6.4 process
// (Debian's ruby-sidekiq and ruby-redis) runs a long job whose lock is written in
// sidekiq-unique-jobs' key format by a server middleware (the gem itself is not packaged in
// Debian: liveness_peers/sidekiq_unique_job.rb writes what its lock.lua writes). The process is
// killed (kill -9) and paused (SIGSTOP, shorter than its 60 s heartbeat expiry) for real.
// Hostile Sidekiq data (a beat in the future, a job in two processes, malformed work) is written
// by hand and must never give a false gone.
#include <gtest/gtest.h>

#include <cstdlib>

#include "liveness_support.h"
#include "redis_fixture.h"

namespace {

using namespace liveness_test;
using inspect::Verdict;
using lockscope::Connection;

const std::string kDigest = "uniquejobs:9f6c2b1e4d3a58c7b0e1f2a3d4c5b6a7";
const std::string kLocked = kDigest + ":LOCKED";

inspect::LivenessOptions quickOptions() {
    inspect::LivenessOptions o;
    o.sidekiqEvery = 500ms;
    return o;
}

std::string nowSeconds(double offset = 0) {
    auto now = std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch());
    return std::to_string(now.count() + offset);
}

class SidekiqLiveness : public lockscope::testing::RedisTest {
  protected:
    std::optional<inspect::LockRecord> until(Verdict want, std::chrono::milliseconds within,
                                             std::vector<Verdict>* seen = nullptr) {
        auto deadline = std::chrono::steady_clock::now() + within;
        std::optional<inspect::LockRecord> last;
        while (std::chrono::steady_clock::now() < deadline) {
            last = judge(*connection_, *reader_, kLocked);
            if (last && last->liveness) {
                if (seen) seen->push_back(last->liveness->verdict);
                if (last->liveness->verdict == want) return last;
            }
            std::this_thread::sleep_for(1s);
        }
        return last;
    }
    // A Sidekiq process as its heartbeat writes it, running jid (hand-written).
    void writeProcess(const std::string& identity, const std::string& beat, const std::string& jid,
                      const std::string& work = "") {
        auto& o = observer();
        o.command({"SADD", "processes", identity});
        o.command({"HSET", identity, "info",
                   R"({"hostname":"web-1","pid":4242,"identity":")" + identity + "\"}", "beat",
                   beat, "busy", "1"});
        o.command({"EXPIRE", identity, "60"});
        o.command({"HSET", identity + ":workers", "tid-1",
                   work.empty()
                       ? R"({"queue":"default","payload":"{\"class\":\"ReportJob\",\"jid\":\")" +
                             jid + R"(\"}","run_at":)" + nowSeconds().substr(0, 10) + "}"
                       : work});
    }
    void lockJob(const std::string& jid) {
        observer().command({"HSET", kLocked, jid, nowSeconds()});
    }

    void SetUp() override {
        RedisTest::SetUp();
        connection_.emplace(connect());
        reader_ = std::make_unique<inspect::LivenessReader>(*connection_, quickOptions());
    }
    std::optional<Connection> connection_;
    std::unique_ptr<inspect::LivenessReader> reader_;
};

TEST_F(SidekiqLiveness, KilledProcessGoesFromAliveToGoneWithinItsHeartbeatExpiry) {
    const std::string url = endpoint().display();
    HolderProcess sidekiq(
        {"sidekiq", "-r", kPeers + "/sidekiq_unique_job.rb", "-c", "1", "-q", "default"},
        {"REDIS_URL=" + url, "LIVENESS_DIGEST=" + kDigest});
    HolderProcess push({"ruby", kPeers + "/sidekiq_push.rb", "600"}, {"REDIS_URL=" + url});
    auto jid = push.waitFor("", 30s);
    ASSERT_TRUE(jid && !jid->empty());
    ASSERT_TRUE(sidekiq.waitFor("started " + *jid, 60s)) << "Sidekiq did not start the job";

    std::vector<Verdict> seen;
    auto alive = until(Verdict::Alive, 15s, &seen);
    ASSERT_TRUE(alive && alive->liveness);
    ASSERT_EQ(alive->liveness->verdict, Verdict::Alive) << evidenceText(*alive->liveness);
    EXPECT_NE(evidenceText(*alive->liveness).find("is running on"), std::string::npos);
    EXPECT_TRUE(alive->liveness->since.has_value());

    // Paused for 20 s of its 60 s heartbeat expiry: it may stop beating, it is not gone.
    sidekiq.signal(SIGSTOP);
    until(Verdict::Gone, 20s, &seen);
    sidekiq.signal(SIGCONT);
    EXPECT_EQ(std::count(seen.begin(), seen.end(), Verdict::Gone), 0);
    ASSERT_TRUE(until(Verdict::Alive, 15s));

    sidekiq.killHard();
    const auto killedAt = std::chrono::steady_clock::now();
    auto gone = until(Verdict::Gone, 75s);
    ASSERT_TRUE(gone && gone->liveness);
    const std::string text = evidenceText(*gone->liveness);
    ASSERT_EQ(gone->liveness->verdict, Verdict::Gone) << text;
    EXPECT_NE(text.find("heartbeat has expired"), std::string::npos) << text;
    EXPECT_LT(std::chrono::steady_clock::now() - killedAt, 65s);
}

TEST_F(SidekiqLiveness, ABeatInTheFutureIsUnknownNotGone) {
    writeProcess("web-1:4242:abc", nowSeconds(3600), "jid-future");
    lockJob("jid-future");
    auto r = judge(*connection_, *reader_, kLocked);
    ASSERT_TRUE(r && r->liveness);
    EXPECT_EQ(r->liveness->verdict, Verdict::Unknown);
    EXPECT_NE(evidenceText(*r->liveness).find("dated in the future"), std::string::npos)
        << evidenceText(*r->liveness);
}

TEST_F(SidekiqLiveness, AJobInTwoProcessesIsUnknown) {
    writeProcess("web-1:4242:abc", nowSeconds(), "jid-twice");
    writeProcess("web-2:4343:def", nowSeconds(), "jid-twice");
    lockJob("jid-twice");
    auto r = judge(*connection_, *reader_, kLocked);
    ASSERT_TRUE(r && r->liveness);
    EXPECT_EQ(r->liveness->verdict, Verdict::Unknown);
    EXPECT_NE(evidenceText(*r->liveness).find("cannot tell which"), std::string::npos);
}

TEST_F(SidekiqLiveness, MalformedWorkAndNowhereOnceAreUnknown) {
    writeProcess("web-1:4242:abc", nowSeconds(), "", "{not json \xff");
    observer().command({"HSET", "web-1:4242:abc:workers", "tid-2", R"({"payload":42})"});
    lockJob("jid-nowhere");
    auto r = judge(*connection_, *reader_, kLocked);
    ASSERT_TRUE(r && r->liveness);
    EXPECT_EQ(r->liveness->verdict, Verdict::Unknown);
    EXPECT_NE(evidenceText(*r->liveness).find("not running, queued, scheduled, retried or dead"),
              std::string::npos);
}

TEST_F(SidekiqLiveness, QueuedIsAliveAndDeadIsGone) {
    observer().command({"SADD", "queues", "default"});
    observer().command({"LPUSH", "queue:default", R"({"class":"ReportJob","jid":"jid-queued"})"});
    lockJob("jid-queued");
    auto queued = judge(*connection_, *reader_, kLocked);
    ASSERT_TRUE(queued && queued->liveness);
    EXPECT_EQ(queued->liveness->verdict, Verdict::Alive) << evidenceText(*queued->liveness);

    observer().command({"DEL", kLocked, "queue:default"});
    observer().command({"ZADD", "dead", nowSeconds(), R"({"class":"ReportJob","jid":"jid-dead"})"});
    lockJob("jid-dead");
    auto dead = judge(*connection_, *reader_, kLocked);
    ASSERT_TRUE(dead && dead->liveness);
    EXPECT_EQ(dead->liveness->verdict, Verdict::Gone) << evidenceText(*dead->liveness);
    EXPECT_NE(evidenceText(*dead->liveness).find("dead set"), std::string::npos);

    // Two jobs hold it, one of them still queued: not an orphan.
    observer().command({"LPUSH", "queue:default", R"({"class":"ReportJob","jid":"jid-queued"})"});
    lockJob("jid-queued");
    auto both = judge(*connection_, *reader_, kLocked);
    ASSERT_TRUE(both && both->liveness);
    EXPECT_NE(both->liveness->verdict, Verdict::Gone) << evidenceText(*both->liveness);
}

}  // namespace
