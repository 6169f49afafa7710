// Symfony Lock (Debian's php-symfony-lock 5.4 with php-redis): a real PHP process takes
// locks with RedisStore (liveness_peers/symfony_lock_holder.php). LockScope recognises the
// sorted set at the bare resource name, decodes its holders (token, expiry, read or write),
// releases one holder the way RedisStore::delete() does and only while it is still a member,
// and never takes another application's sorted set for a Symfony lock.
#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

#include "cli_runner.h"
#include "inspect/formats/sorted_set_shapes.h"
#include "liveness_support.h"
#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/inspect/library_release.h"
#include "redis_fixture.h"

namespace {

using namespace liveness_test;
using inspect::LockKind;
using inspect::Verdict;
using std::chrono::system_clock;

bool phpSymfonyInstalled() {
    return std::filesystem::exists("/usr/share/php/Symfony/Component/Lock/autoload.php") &&
           std::system("php -r 'exit(class_exists(\"Redis\") ? 0 : 1);' >/dev/null 2>&1") == 0;
}

class SymfonyLock : public lockscope::testing::CliTest {
  protected:
    void SetUp() override {
        CliTest::SetUp();
        if (!phpSymfonyInstalled())
            GTEST_SKIP() << "php-symfony-lock or php-redis is not installed";
        connection_.emplace(connect());
    }
    // Starts a holder; returns the tokens it printed (one for write, two for read).
    std::vector<std::string> hold(const std::string& mode, const std::string& resource,
                                  int ttlSeconds = 30) {
        holders_.push_back(std::make_unique<HolderProcess>(std::vector<std::string>{
            "php", kPeers + "/symfony_lock_holder.php", std::to_string(server().port()),
            std::to_string(ttlSeconds), mode, resource}));
        std::vector<std::string> tokens;
        const std::string prefix = mode == "read" ? "read " : "write ";
        for (int i = 0; i < (mode == "read" ? 2 : 1); ++i)
            if (auto t = holders_.back()->waitFor(prefix, 20s)) tokens.push_back(*t);
        EXPECT_EQ(tokens.size(), mode == "read" ? 2u : 1u) << "the PHP holder did not start";
        return tokens;
    }
    std::optional<inspect::LockRecord> read(const std::string& key) {
        auto records = inspect::Scanner(*connection_, {}).readKeys({key});
        if (records.empty()) return std::nullopt;
        return records.front();
    }
    std::vector<inspect::LockRecord> scan(const std::string& pattern) {
        inspect::ScanOptions options;
        options.patterns = {pattern};
        return inspect::Scanner(*connection_, options).collect();
    }

    std::vector<std::unique_ptr<HolderProcess>> holders_;
    std::optional<lockscope::Connection> connection_;
};

TEST_F(SymfonyLock, AWriteLockIsRecognisedWithItsHolderAndExpiry) {
    auto tokens = hold("write", "invoice-42", 30);
    ASSERT_EQ(tokens.size(), 1u);
    auto records = scan("invoice-*");  // a bare resource name: nothing in the key says Symfony
    ASSERT_EQ(records.size(), 1u);
    const auto& r = records.front();
    EXPECT_EQ(r.kind, LockKind::SymfonyLock);
    EXPECT_EQ(r.type, inspect::ValueType::ZSet);
    EXPECT_GT(r.pttlMs, 25'000);
    auto facts = inspect::decodeHolder(r);
    EXPECT_EQ(facts.mode, "write");
    ASSERT_EQ(facts.members.size(), 1u);
    EXPECT_EQ(facts.members[0].id, tokens[0]);
    EXPECT_TRUE(facts.members[0].write);
    EXPECT_FALSE(facts.members[0].lapsed);
    // Its own expiry, from its score: about now + the 30 s TTL.
    auto left = facts.members[0].at - system_clock::now();
    EXPECT_GT(left, 25s);
    EXPECT_LT(left, 31s);
    EXPECT_NE(inspect::describeHolder(facts).find("write lock, 1 holder"), std::string::npos)
        << inspect::describeHolder(facts);
}

TEST_F(SymfonyLock, ReadHoldersAreEachDecoded) {
    auto tokens = hold("read", "catalog", 30);
    ASSERT_EQ(tokens.size(), 2u);
    auto r = read("catalog");
    ASSERT_TRUE(r);
    EXPECT_EQ(r->kind, LockKind::SymfonyLock);
    auto facts = inspect::decodeHolder(*r);
    EXPECT_EQ(facts.mode, "read");
    ASSERT_EQ(facts.members.size(), 2u);
    std::vector<std::string> ids{facts.members[0].id, facts.members[1].id};
    std::sort(ids.begin(), ids.end());
    std::sort(tokens.begin(), tokens.end());
    EXPECT_EQ(ids, tokens);
    EXPECT_FALSE(facts.members[0].write);
}

TEST_F(SymfonyLock, ReleasesTheWriteHolderOnlyWithItsToken) {
    auto tokens = hold("write", "invoice-7", 30);
    ASSERT_EQ(tokens.size(), 1u);
    auto seen = read("invoice-7");
    ASSERT_TRUE(seen);
    inspect::LibraryRelease release(*connection_, nullptr);
    // A token that is not a member (someone else's): nothing changes.
    auto other = *seen;
    other.token = "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=";
    EXPECT_EQ(release.release(other).outcome, inspect::ActionOutcome::TokenChanged);
    EXPECT_EQ(observer().command({"ZCARD", "invoice-7"}).integer(), 2);
    // The holder seen: its token and "__write__" go, and with them the key.
    auto done = release.release(*seen);
    EXPECT_EQ(done.outcome, inspect::ActionOutcome::Done) << done.message;
    EXPECT_EQ(observer().command({"EXISTS", "invoice-7"}).integer(), 0);
    // Released as RedisStore expects: a new Symfony lock can be taken at once.
    auto again = hold("write", "invoice-7", 30);
    EXPECT_EQ(again.size(), 1u);
}

TEST_F(SymfonyLock, ReleasingOneReaderKeepsTheOtherAndItsExpiry) {
    auto tokens = hold("read", "catalog", 30);
    ASSERT_EQ(tokens.size(), 2u);
    auto seen = read("catalog");
    ASSERT_TRUE(seen);
    inspect::LibraryRelease release(*connection_, nullptr);
    // Two holders and none named: refused, nothing sent.
    auto refused = release.release(*seen);
    EXPECT_EQ(refused.outcome, inspect::ActionOutcome::Refused);
    EXPECT_NE(refused.message.find("several holders"), std::string::npos) << refused.message;
    EXPECT_EQ(observer().command({"ZCARD", "catalog"}).integer(), 2);
    // "__write__" is no holder.
    auto marker = *seen;
    marker.token = "__write__";
    EXPECT_EQ(release.release(marker).outcome, inspect::ActionOutcome::Refused);
    auto one = *seen;
    one.token = tokens[0];
    auto done = release.release(one);
    EXPECT_EQ(done.outcome, inspect::ActionOutcome::Done) << done.message;
    auto left = observer().command({"ZRANGE", "catalog", "0", "-1"});
    ASSERT_EQ(left.size(), 1u);
    EXPECT_EQ(left[0].text(), tokens[1]);
    EXPECT_GT(observer().command({"PTTL", "catalog"}).integer(), 20'000);
    // The same holder again: no longer a member, so nothing is removed.
    EXPECT_EQ(release.release(one).outcome, inspect::ActionOutcome::TokenChanged);
    EXPECT_EQ(observer().command({"ZCARD", "catalog"}).integer(), 1);
}

TEST_F(SymfonyLock, TheCliReleasesOneHolderByItsToken) {
    auto tokens = hold("write", "nightly-export", 30);
    ASSERT_EQ(tokens.size(), 1u);
    auto list = cli({"list", "-u", url(), "--pattern", "nightly-*", "--json"});
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_NE(list.out.find("\"kind\":\"symfony-lock\""), std::string::npos) << list.out;
    EXPECT_NE(list.out.find(tokens[0]), std::string::npos) << list.out;
    auto wrong = cli({"release", "nightly-export", "-u", url(), "--token",
                      "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY="});
    EXPECT_EQ(wrong.code, 4) << wrong.out << wrong.err;
    EXPECT_EQ(observer().command({"EXISTS", "nightly-export"}).integer(), 1);
    auto done = cli({"release", "nightly-export", "-u", url(), "--token", tokens[0]});
    EXPECT_EQ(done.code, 0) << done.out << done.err;
    EXPECT_EQ(observer().command({"EXISTS", "nightly-export"}).integer(), 0);
}

TEST_F(SymfonyLock, ARefreshedLockIsAliveAndAKilledOneIsNeverCalledGone) {
    hold("refresh", "payroll", 3);
    inspect::LivenessReader reader(*connection_);
    std::optional<inspect::LockRecord> r;
    for (int i = 0; i < 40 && !(r && r->liveness && r->liveness->verdict == Verdict::Alive); ++i) {
        std::this_thread::sleep_for(250ms);
        r = judge(*connection_, reader, "payroll");
    }
    ASSERT_TRUE(r && r->liveness);
    ASSERT_EQ(r->kind, LockKind::SymfonyLock);
    ASSERT_EQ(r->liveness->verdict, Verdict::Alive) << evidenceText(*r->liveness);
    holders_.back()->killHard();
    for (int i = 0; i < 16; ++i) {
        auto now = judge(*connection_, reader, "payroll");
        if (!now) break;  // expired
        ASSERT_TRUE(now->liveness);
        EXPECT_NE(now->liveness->verdict, Verdict::Gone) << evidenceText(*now->liveness);
        std::this_thread::sleep_for(250ms);
    }
}

}  // namespace

namespace {

// Other applications' sorted sets under a wide pattern: never a Symfony lock, never a crash.
class OtherSortedSets : public lockscope::testing::RedisTest {
  protected:
    std::map<std::string, inspect::LockRecord> scanAll() {
        auto c = connect();
        inspect::ScanOptions options;
        options.patterns = {"*"};
        std::map<std::string, inspect::LockRecord> byKey;
        for (auto& r : inspect::Scanner(c, options).collect()) byKey[r.key] = r;
        return byKey;
    }
    static std::string nowMs(std::int64_t plusMs = 0) {
        return std::to_string(std::chrono::duration_cast<std::chrono::milliseconds>(
                                  system_clock::now().time_since_epoch())
                                  .count() +
                              plusMs);
    }
    static constexpr const char* kToken = "CZrCm7ABShUgjBz59jpkV66A0hXOgGrHgQR3M2aJc9I=";
    static constexpr const char* kToken2 = "sUIl7a9u5FjnagnUojinIceX6nWl6tBbJw5FJFSjyzQ=";
};

TEST_F(OtherSortedSets, RealSidekiqAndBullMqSetsAreNoLocks) {
    const std::string url = "redis://127.0.0.1:" + std::to_string(server().port());
    // Sidekiq's own client schedules a job (the schedule zset, scored in epoch seconds) and
    // its retry and dead sets hold the same payloads.
    ASSERT_EQ(std::system(("REDIS_URL=" + url +
                           " ruby -e \"require 'sidekiq'; j = Sidekiq::Client.push('class' => "
                           "'ReportJob', 'args' => [1], 'at' => Time.now.to_f + 600); "
                           "Sidekiq.redis { |c| p = c.zrange('schedule', 0, 0)[0]; "
                           "c.zadd('retry', Time.now.to_f + 30, p); "
                           "c.zadd('dead', Time.now.to_f, p) }\" >/dev/null")
                              .c_str()),
              0);
    if (npmPeersInstalled()) {  // BullMQ's delayed set: job ids scored by timestamp * 4096
        ASSERT_EQ(std::system(("node -e \"const {Queue} = require('" + kAdapters +
                               "/node_modules/bullmq'); const q = new Queue('mail', "
                               "{connection: {host: '127.0.0.1', port: " +
                               std::to_string(server().port()) +
                               "}}); q.add('x', {}, {delay: 60000}).then(() => "
                               "q.close())\" >/dev/null")
                                  .c_str()),
                  0);
    }
    // Shapes close to Symfony's that are not: base64 tokens scored like a leaderboard, in
    // seconds, or long expired; "__write__" beside two tokens; a binary member.
    auto& o = observer();
    o.command({"ZADD", "scores", "42", kToken});
    o.command({"ZADD", "sessions", "1765000000", kToken});
    o.command({"ZADD", "old-tokens", "1000000000000", kToken});
    o.command({"ZADD", "two-writers", nowMs(30000), kToken, nowMs(30000), kToken2, nowMs(30000),
               "__write__"});
    o.command({"ZADD", "binary", nowMs(30000), std::string("\x00\xff\x01token", 8)});
    o.command({"ZADD", "redisson_lock_timeout:{x}", nowMs(30000),
               "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9:1"});
    auto records = scanAll();
    ASSERT_TRUE(records.count("schedule") && records.count("retry") && records.count("dead"));
    for (const auto& [key, r] : records) {
        if (r.type != inspect::ValueType::ZSet) continue;
        EXPECT_NE(r.kind, LockKind::SymfonyLock) << key;
        if (r.kind == LockKind::NotALock) {
            EXPECT_TRUE(r.fields.empty()) << key;  // another application's members: not kept
        }
    }
    if (npmPeersInstalled()) {
        ASSERT_TRUE(records.count("bull:mail:delayed"));
        EXPECT_EQ(records["bull:mail:delayed"].kind, LockKind::NotALock);
    }
    EXPECT_EQ(records["redisson_lock_timeout:{x}"].kind, LockKind::RedissonFairTimeout);
}

TEST_F(OtherSortedSets, AHugeSetIsReadWithinTheCapAndCannotBeReleasedBlind) {
    auto& o = observer();
    // 10,000 holders: a Symfony-shaped read lock far larger than the cap.
    std::vector<std::string> args{"ZADD", "crowd"};
    for (int i = 0; i < 10'000; ++i) {
        std::string token = std::string(kToken);
        auto digits = std::to_string(100000 + i);
        token.replace(0, digits.size(), digits);
        args.push_back(nowMs(30000));
        args.push_back(token);
    }
    std::vector<std::string_view> argv(args.begin(), args.end());
    o.command(lockscope::Connection::Argv(argv.data(), argv.size()));
    o.command({"PEXPIRE", "crowd", "30000"});
    auto c = connect();
    auto records = inspect::Scanner(c, {}).readKeys({"crowd"});
    ASSERT_EQ(records.size(), 1u);
    const auto& r = records.front();
    EXPECT_EQ(r.kind, LockKind::SymfonyLock);
    EXPECT_EQ(r.fields.size(), inspect::ScanOptions{}.maxHashFields);
    EXPECT_EQ(r.valueBytes, 10'000u);
    EXPECT_TRUE(r.truncated);
    auto refused = inspect::LibraryRelease(c, nullptr).release(r);
    EXPECT_EQ(refused.outcome, inspect::ActionOutcome::Refused);
    EXPECT_EQ(o.command({"ZCARD", "crowd"}).integer(), 10'000);
}

TEST_F(OtherSortedSets, ZrangeDeniedListsTheSetWithoutHoldersAndSaysWhy) {
    auto& o = observer();
    o.command({"ZADD", "invoice-9", nowMs(30000), kToken, nowMs(30000), "__write__"});
    o.command({"PEXPIRE", "invoice-9", "30000"});
    o.command({"ACL", "SETUSER", "viewer", "on", ">pw", "~*", "+@all", "-zrange"});
    auto endpoint = this->endpoint();
    endpoint.user = "viewer";
    endpoint.password = "pw";
    auto c = lockscope::Connection::open(endpoint);
    inspect::Scanner scanner(c, {});
    auto records = scanner.readKeys({"invoice-9"});
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records.front().type, inspect::ValueType::ZSet);
    EXPECT_TRUE(records.front().fields.empty());
    EXPECT_NE(records.front().kind, LockKind::SymfonyLock);
    bool said = false;
    for (const auto& n : scanner.notes())
        said = said || n.find("ZRANGE denied") != std::string::npos;
    EXPECT_TRUE(said);
}

}  // namespace
