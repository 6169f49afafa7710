// A huge hash under the pattern: listed and marked truncated, its fields read with a capped
// command so the inspector never makes a slow one, also for users denied HSCAN or HLEN.
#include <gtest/gtest.h>

#include "inspect_helpers.h"
#include "lockscope/inspect/scanner.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::inspect;
using lockscope::testing::contains;
using lockscope::testing::findKey;
using lockscope::testing::RedisTest;
using lockscope::testing::scanAll;

namespace {

const std::string kHolder = "6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b:57";
constexpr int kHugeFields = 100'000;

class HugeHashServer : public RedisTest {
  protected:
    LocalRedisServerOptions serverOptions() const override {
        return {.configLines = {"slowlog-log-slower-than 2000", "slowlog-max-len 1024",
                                "user nohscan on >pw ~* &* +@all -hscan",
                                "user reader on >pw ~* &* -@all +scan +type +pttl +get "
                                "+hgetall +ping"}};
    }
    void SetUp() override {
        RedisTest::SetUp();
        Connection& admin = observer();
        for (int from = 0; from < kHugeFields; from += 1000) {
            std::vector<std::string> argv{"HSET", "lock:huge"};
            for (int i = from; i < from + 1000; ++i)
                argv.push_back("field" + std::to_string(i)), argv.emplace_back("v");
            admin.command(std::vector<std::string_view>(argv.begin(), argv.end()));
        }
        admin.command({"HSET", "lock:redisson", kHolder, "1"});
        admin.command({"PEXPIRE", "lock:redisson", "30000"});
        admin.command({"SET", "lock:{a}", "0123456789abcdef0123456789abcdef", "PX", "60000"});
    }
    Connection as(const std::string& user) {
        Endpoint e = endpoint();
        e.user = user;
        e.password = "pw";
        return Connection::open(e);
    }
    // Every command the scanner sent, as the command observer logged it.
    static std::vector<std::string> scanLogged(Connection& c, std::vector<LockRecord>& records,
                                               ScanSummary* summary = nullptr) {
        std::vector<std::string> sent;
        c.setObserver([&](const CommandEvent& e) { sent.push_back(e.command); });
        records = scanAll(c, {}, summary);
        c.setObserver({});
        return sent;
    }
    static int countStarting(const std::vector<std::string>& sent, const std::string& prefix) {
        return static_cast<int>(std::count_if(
            sent.begin(), sent.end(), [&](const auto& s) { return s.starts_with(prefix); }));
    }
};

}  // namespace

TEST_F(HugeHashServer, HugeHashIsListedTruncatedAndReadWithACappedHscan) {
    Connection c = connect();
    std::vector<LockRecord> records;
    auto sent = scanLogged(c, records);
    ASSERT_EQ(records.size(), 3u);
    const LockRecord* huge = findKey(records, "lock:huge");
    ASSERT_TRUE(huge);
    EXPECT_EQ(huge->type, ValueType::Hash);
    EXPECT_TRUE(huge->truncated);
    EXPECT_EQ(huge->valueBytes, static_cast<std::uint32_t>(kHugeFields));  // HLEN
    EXPECT_GT(huge->fields.size(), 0u);
    EXPECT_LE(huge->fields.size(), ScanOptions{}.maxHashFields);
    EXPECT_EQ(countStarting(sent, "HSCAN lock:huge 0 COUNT 64"), 1);
    EXPECT_EQ(countStarting(sent, "HGETALL"), 0);
    const LockRecord* redisson = findKey(records, "lock:redisson");
    EXPECT_EQ(redisson->kind, LockKind::RedissonLock);
    EXPECT_FALSE(redisson->truncated);
    // And the server agrees that no command of the scan is slow.
    std::string slow = lockscope::testing::slowInEveryRun(observer(), [&] { scanAll(c); });
    EXPECT_TRUE(slow.empty()) << slow;
}

TEST_F(HugeHashServer, WithoutHscanOnlyShortHashesAreReadWithHgetall) {
    Connection c = as("nohscan");
    std::vector<LockRecord> records;
    ScanSummary summary;
    auto sent = scanLogged(c, records, &summary);
    ASSERT_EQ(records.size(), 3u);
    const LockRecord* huge = findKey(records, "lock:huge");
    EXPECT_TRUE(huge->truncated);
    EXPECT_TRUE(huge->fields.empty());
    EXPECT_EQ(huge->valueBytes, static_cast<std::uint32_t>(kHugeFields));
    EXPECT_EQ(countStarting(sent, "HGETALL lock:huge"), 0);
    EXPECT_EQ(countStarting(sent, "HGETALL lock:redisson"), 1);
    const LockRecord* redisson = findKey(records, "lock:redisson");
    EXPECT_EQ(redisson->fields, (std::vector<HashField>{{kHolder, "1"}}));
    EXPECT_EQ(redisson->kind, LockKind::RedissonLock);
    ASSERT_EQ(summary.notes.size(), 1u);
    EXPECT_TRUE(contains(summary.notes[0], "HSCAN denied")) << summary.notes[0];
    EXPECT_TRUE(contains(summary.notes[0], "without their fields")) << summary.notes[0];
}

TEST_F(HugeHashServer, WithoutHscanAndHlenHgetallIsUncappedAndTheNoteSaysSo) {
    Connection c = as("reader");
    std::vector<LockRecord> records;
    ScanSummary summary;
    auto sent = scanLogged(c, records, &summary);
    ASSERT_EQ(records.size(), 3u);
    EXPECT_EQ(findKey(records, "lock:redisson")->kind, LockKind::RedissonLock);
    const LockRecord* huge = findKey(records, "lock:huge");
    EXPECT_TRUE(huge->truncated);
    EXPECT_LE(huge->fields.size(), ScanOptions{}.maxHashFields);
    EXPECT_EQ(countStarting(sent, "HGETALL lock:huge"), 1);
    std::string notes;
    for (const auto& n : summary.notes) notes += n + "\n";
    EXPECT_TRUE(contains(notes, "HSCAN and HLEN denied")) << notes;
    EXPECT_TRUE(contains(notes, "uncapped")) << notes;
    // Which is why it is noted: this HGETALL is slow in every run.
    std::string slow = lockscope::testing::slowInEveryRun(observer(), [&] { scanAll(c); });
    EXPECT_TRUE(contains(slow, "HGETALL lock:huge")) << slow;
}
