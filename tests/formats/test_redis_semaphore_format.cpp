// redis-semaphore (npm, installed by scripts/install-npm-peers): a real Mutex and Semaphore
// are recognised, their holder's renewals read as alive, and the Mutex released as the library
// releases it (delete only if the identifier is still the one seen). The Semaphore's members
// are its holders: each decoded with its last refresh, a killed one shown stale against the
// lock timeout, and one released with ZREM as the library does.
#include <gtest/gtest.h>

#include <algorithm>

#include "liveness_support.h"
#include "lockscope/inspect/formats/holder_facts.h"
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

namespace {

using liveness_test::HolderProcess;
using liveness_test::kAdapters;
using liveness_test::kPeers;

// Semaphore holders alone (no Mutex): each a real process sharing semaphore:pool.
class RedisSemaphoreHolders : public lockscope::testing::RedisTest {
  protected:
    void SetUp() override {
        RedisTest::SetUp();
        if (!std::filesystem::exists(kAdapters + "/node_modules/redis-semaphore"))
            GTEST_SKIP() << "redis-semaphore is not installed: run ./scripts/install-npm-peers";
        connection_.emplace(connect());
    }
    std::string startHolder(int lockTimeoutMs) {
        holders_.push_back(std::make_unique<HolderProcess>(std::vector<std::string>{
            "node", kPeers + "/redis_semaphore_holder.js", kAdapters,
            std::to_string(server().port()), std::to_string(lockTimeoutMs), "semaphore"}));
        auto id = holders_.back()->waitFor("semaphore ", 20s);
        EXPECT_TRUE(id) << "the redis-semaphore holder did not start";
        return id.value_or("");
    }
    inspect::LockRecord pool() {
        auto records = inspect::Scanner(*connection_, {}).readKeys({"semaphore:pool"});
        EXPECT_EQ(records.size(), 1u);
        return records.empty() ? inspect::LockRecord{} : records.front();
    }
    static std::vector<std::string> ids(const inspect::HolderFacts& f) {
        std::vector<std::string> out;
        for (const auto& m : f.members) out.push_back(m.id);
        std::sort(out.begin(), out.end());
        return out;
    }

    std::vector<std::unique_ptr<HolderProcess>> holders_;
    std::optional<lockscope::Connection> connection_;
};

TEST_F(RedisSemaphoreHolders, EachHolderIsDecodedWithItsLastRefresh) {
    std::vector<std::string> started{startHolder(4000), startHolder(4000)};
    std::sort(started.begin(), started.end());
    auto r = pool();
    EXPECT_EQ(r.kind, LockKind::RedisSemaphore);
    auto facts = inspect::decodeHolder(r);
    EXPECT_EQ(ids(facts), started);
    for (const auto& m : facts.members) {
        EXPECT_FALSE(m.lapsed);
        EXPECT_LT(std::chrono::system_clock::now() - m.at, 5s);  // acquired just now
    }
    EXPECT_NE(inspect::describeHolder(facts).find("2 holders"), std::string::npos)
        << inspect::describeHolder(facts);
}

TEST_F(RedisSemaphoreHolders, AKilledHolderGoesStaleWhileTheLiveOneRefreshes) {
    auto live = startHolder(2000);
    auto killed = startHolder(2000);
    holders_.back()->killHard();
    // The live holder refreshes every 1.6 s and keeps the key; the killed one's score stays.
    bool stale = false;
    for (int i = 0; i < 40 && !stale; ++i) {
        std::this_thread::sleep_for(200ms);
        auto facts = inspect::decodeHolder(pool());
        for (const auto& m : facts.members) {
            if (m.id == live) {
                EXPECT_FALSE(m.lapsed) << "the refreshing holder called stale";
            }
            if (m.id == killed) stale = m.lapsed;
        }
    }
    EXPECT_TRUE(stale) << "the killed holder's member was never shown past its lock timeout";
    auto text = inspect::describeHolder(inspect::decodeHolder(pool()));
    EXPECT_NE(text.find("stale"), std::string::npos) << text;
}

TEST_F(RedisSemaphoreHolders, OneHolderIsReleasedWithZremOnlyWhileItIsAMember) {
    auto first = startHolder(10000);
    auto second = startHolder(10000);
    auto seen = pool();
    inspect::LibraryRelease release(*connection_, nullptr);
    // Two holders and none named: refused, nothing changed.
    EXPECT_EQ(release.release(seen).outcome, inspect::ActionOutcome::Refused);
    EXPECT_EQ(observer().command({"ZCARD", "semaphore:pool"}).integer(), 2);
    auto stranger = seen;
    stranger.token = "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9";
    EXPECT_EQ(release.release(stranger).outcome, inspect::ActionOutcome::TokenChanged);
    EXPECT_EQ(observer().command({"ZCARD", "semaphore:pool"}).integer(), 2);
    auto one = seen;
    one.token = first;
    auto done = release.release(one);
    EXPECT_EQ(done.outcome, inspect::ActionOutcome::Done) << done.message;
    auto left = observer().command({"ZRANGE", "semaphore:pool", "0", "-1"});
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0].text(), second);
}

}  // namespace
