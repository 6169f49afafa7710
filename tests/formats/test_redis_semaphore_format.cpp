// redis-semaphore (npm, installed by scripts/install-npm-peers): a real Mutex and Semaphore
// are recognised, their holder's renewals read as alive, and the Mutex released as the library
// releases it (delete only if the identifier is still the one seen).
#include <gtest/gtest.h>

#include "liveness_support.h"
#include "lockscope/inspect/library_release.h"
#include "redis_fixture.h"

namespace {

using namespace liveness_test;
using inspect::LockKind;
using inspect::Verdict;

class RedisSemaphoreFormat : public lockscope::testing::RedisTest {
  protected:
    void SetUp() override {
        RedisTest::SetUp();
        connection_.emplace(connect());
        if (!std::filesystem::exists(kAdapters + "/node_modules/redis-semaphore"))
            GTEST_SKIP() << "redis-semaphore is not installed: run ./scripts/install-npm-peers";
        holder_ = std::make_unique<HolderProcess>(
            std::vector<std::string>{"node", kPeers + "/redis_semaphore_holder.js", kAdapters,
                                     std::to_string(server().port()), "4000"});
        auto mutex = holder_->waitFor("mutex ", 20s);
        auto semaphore = holder_->waitFor("semaphore ", 20s);
        ASSERT_TRUE(mutex && semaphore) << "the redis-semaphore holder did not start";
        mutexId_ = *mutex;
    }
    std::vector<inspect::LockRecord> scan() {
        inspect::ScanOptions options;
        options.patterns = {"mutex:*", "semaphore:*"};
        auto records = inspect::Scanner(*connection_, options).collect();
        std::sort(records.begin(), records.end(),
                  [](const auto& a, const auto& b) { return a.key < b.key; });
        return records;
    }

    std::unique_ptr<HolderProcess> holder_;
    std::string mutexId_;
    std::optional<lockscope::Connection> connection_;
};

TEST_F(RedisSemaphoreFormat, MutexAndSemaphoreAreRecognised) {
    auto records = scan();
    ASSERT_EQ(records.size(), 2u);
    EXPECT_EQ(records[0].key, "mutex:printer");
    EXPECT_EQ(records[0].kind, LockKind::RedisSemaphore);
    EXPECT_EQ(records[0].token, mutexId_);
    EXPECT_EQ(records[0].resource(), "printer");
    EXPECT_EQ(records[1].key, "semaphore:pool");
    EXPECT_EQ(records[1].kind, LockKind::RedisSemaphore);
    EXPECT_EQ(records[1].resource(), "pool");
}

TEST_F(RedisSemaphoreFormat, ARefreshingMutexIsAliveAndAKilledOneIsNeverCalledGone) {
    inspect::LivenessReader reader(*connection_);
    std::vector<Verdict> seen;
    std::optional<inspect::LockRecord> r;
    for (int i = 0; i < 40 && !(r && r->liveness && r->liveness->verdict == Verdict::Alive); ++i) {
        std::this_thread::sleep_for(250ms);
        r = judge(*connection_, reader, "mutex:printer");
    }
    ASSERT_TRUE(r && r->liveness);
    ASSERT_EQ(r->liveness->verdict, Verdict::Alive) << evidenceText(*r->liveness);
    holder_->killHard();
    // Its renewals stop: a warning, never gone (nothing shows where its holder runs).
    bool warned = false;
    for (int i = 0; i < 20; ++i) {
        auto now = judge(*connection_, reader, "mutex:printer");
        if (!now) break;  // expired
        ASSERT_TRUE(now->liveness);
        EXPECT_NE(now->liveness->verdict, Verdict::Gone);
        for (const auto& e : now->liveness->evidence) warned = warned || e.warning;
        std::this_thread::sleep_for(250ms);
    }
    EXPECT_TRUE(warned) << "the stopped renewals were not reported";
}

TEST_F(RedisSemaphoreFormat, MutexIsReleasedOnlyWithTheIdentifierSeen) {
    auto records = scan();
    ASSERT_FALSE(records.empty());
    auto seen = records[0];
    seen.token = "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9";  // someone else's id
    EXPECT_EQ(inspect::LibraryRelease(*connection_, nullptr).release(seen).outcome,
              inspect::ActionOutcome::TokenChanged);
    EXPECT_EQ(observer().command({"EXISTS", "mutex:printer"}).integer(), 1);
    EXPECT_EQ(inspect::LibraryRelease(*connection_, nullptr).release(records[0]).outcome,
              inspect::ActionOutcome::Done);
    EXPECT_EQ(observer().command({"EXISTS", "mutex:printer"}).integer(), 0);
}

}  // namespace
