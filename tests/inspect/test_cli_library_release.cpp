// lockscope-cli release on the locks whose library has a release of its own: the CLI takes
// that path (the waiter the library uses wakes), refuses a holder that changed, and audits
// each call. The locks are written with the commands each library's source sends (see
// tests/formats/formats_test_support.cpp for the files cited).
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <thread>

#include "cli_runner.h"
#include "formats_test_support.h"
#include "inspect_helpers.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::CliTest;
using lockscope::testing::contains;

namespace {

class CliLibraryReleaseTest : public CliTest {
  protected:
    Connection subscriber(const std::string& channel) {
        Connection s = connect();
        s.command({"SUBSCRIBE", channel});
        return s;
    }
    static std::string nextMessage(Connection& s, std::chrono::milliseconds timeout = 2000ms) {
        if (!s.waitForReply(timeout)) return "";
        Reply m = s.receive();
        return std::string(m[2].text());
    }
};

}  // namespace

TEST_F(CliLibraryReleaseTest, RedissonLockWakesItsSubscriber) {
    Connection c = connect();
    const std::string field = formats_test::kClientA + ":1";
    c.command({"HINCRBY", "ledger", field, "2"});
    c.command({"PEXPIRE", "ledger", "30000"});
    Connection waiter = subscriber("redisson_lock__channel:{ledger}");
    // Re-entered since it was seen (count 2, seen 1): refused, nothing published.
    auto changed =
        cli({"release", "ledger", "--fields", R"({")" + field + R"(":"1"})", "-u", url()});
    EXPECT_EQ(changed.code, 4) << changed.err;
    EXPECT_EQ(nextMessage(waiter, 300ms), "");
    EXPECT_EQ(c.command({"EXISTS", "ledger"}).integer(), 1);
    // Before this path, the CLI deleted the hash with no PUBLISH: the waiter slept on.
    auto done = cli({"release", "ledger", "--fields", R"({")" + field + R"(":"2"})", "-u", url()});
    EXPECT_EQ(done.code, 0) << done.err;
    EXPECT_TRUE(contains(done.out, "1 subscriber")) << done.out;
    EXPECT_EQ(nextMessage(waiter), "0");  // LockPubSub.UNLOCK_MESSAGE
    EXPECT_EQ(c.command({"EXISTS", "ledger"}).integer(), 0);
    auto results = auditResults();
    ASSERT_EQ(results.size(), 2u);
    EXPECT_EQ(results[0]["result"], "token-changed");
    EXPECT_EQ(results[1]["result"], "done");
}

TEST_F(CliLibraryReleaseTest, RedissonReadWriteLockWakesAllReaders) {
    Connection c = connect();
    const std::string field = formats_test::kClientA + ":57:write";
    c.command({"HSET", "stock", "mode", "write", field, "1"});
    Connection waiter = subscriber("redisson_rwlock:{stock}");
    auto done = cli({"release", "stock", "--fields", R"({"mode":"write",")" + field + R"(":"1"})",
                     "-u", url()});
    EXPECT_EQ(done.code, 0) << done.err;
    EXPECT_EQ(nextMessage(waiter), "1");  // READ_UNLOCK_MESSAGE: every waiter
    EXPECT_EQ(c.command({"EXISTS", "stock"}).integer(), 0);
}

TEST_F(CliLibraryReleaseTest, SidekiqDigestGoesAsOneAndTheBlockedJobWakes) {
    Connection c = connect();
    formats_test::writeEveryFormat(c);
    const std::string d = formats_test::kDigest;
    c.command({"DEL", d + ":QUEUED"});
    auto waiter = std::async(std::launch::async, [&] {
        ConnectionOptions o;
        o.commandTimeout = 15000ms;
        Connection w = connect(o);
        Reply r = w.command({"BLMOVE", d + ":QUEUED", d + ":PRIMED", "RIGHT", "LEFT", "10"});
        return r.isNil() ? std::string("(timeout)") : std::string(r.text());
    });
    for (int i = 0; i < 200; ++i) {
        std::string info(c.command({"INFO", "clients"}).text());
        if (contains(info, "blocked_clients:1")) break;
        std::this_thread::sleep_for(10ms);
    }
    const std::string jobs = R"({")" + formats_test::kJid + R"(":"1764549331.12"})";
    auto done = cli({"release", d + ":LOCKED", "--fields", jobs, "-u", url()});
    EXPECT_EQ(done.code, 0) << done.err << done.out;
    EXPECT_EQ(waiter.get(), "1");  // unlock.lua's sentinel
    EXPECT_EQ(c.command({"EXISTS", d + ":LOCKED", d + ":INFO", d}).integer(), 0);
    EXPECT_TRUE(c.command({"ZSCORE", "uniquejobs:digests", d}).isNil());
}

TEST_F(CliLibraryReleaseTest, SpringLockPublishesOnItsRegistryChannelWhenTheKindIsGiven) {
    Connection c = connect();
    formats_test::writeEveryFormat(c);
    Connection waiter = subscriber("orders-channel");
    EXPECT_EQ(cli({"release", "orders:order-17", "--token", formats_test::kClientA, "--kind",
                   "spring-integration", "-u", url()})
                  .code,
              4);
    EXPECT_EQ(nextMessage(waiter, 300ms), "");
    auto done = cli({"release", "orders:order-17", "--token", formats_test::kClientB, "--kind",
                     "spring-integration", "-u", url()});
    EXPECT_EQ(done.code, 0) << done.err;
    EXPECT_EQ(nextMessage(waiter), "orders:order-17");
    EXPECT_EQ(c.command({"EXISTS", "orders:order-18"}).integer(), 1);
    // Bad --kind input changes nothing.
    EXPECT_EQ(
        cli({"release", "orders:order-18", "--token", "t", "--kind", "nonsense", "-u", url()}).code,
        2);
    EXPECT_EQ(cli({"release", "orders:order-18", "--fields", "{\"a\":\"1\"}", "--kind",
                   "spring-integration", "-u", url()})
                  .code,
              2);
    EXPECT_EQ(cli({"release", "orders:order-18", "--token", "t", "--kind", "", "-u", url()}).code,
              2);
    EXPECT_EQ(c.command({"EXISTS", "orders:order-18"}).integer(), 1);
}
