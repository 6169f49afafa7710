#include <gtest/gtest.h>

#include "inspect_helpers.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/lock_watch.h"
#include "lockscope/inspect/pacer.h"
#include "lockscope/inspect/safe_actions.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/inspect/server_facts.h"
#include "redis_fixture.h"
#include "sanitizer_time.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;
using lockscope::testing::contains;
using lockscope::testing::findKey;
using lockscope::testing::RedisTest;
using lockscope::testing::scanAll;

namespace {

const std::string kHolder = "6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b:57";

class RestrictedServer : public RedisTest {
  protected:
    LocalRedisServerOptions serverOptions() const override {
        return {
            .configLines = {"requirepass admin-pw",
                            "user reader on >pw ~* &* -@all +scan +type +pttl +get +hgetall +ping",
                            "user noscan on >pw ~* &* +@all -scan",
                            "user nopttl on >pw ~* &* +@all -pttl"}};
    }
    Endpoint as(const std::string& user, const std::string& password) const {
        Endpoint e = endpoint();
        e.user = user;
        e.password = password;
        return e;
    }
    void SetUp() override {
        RedisTest::SetUp();
        Connection admin = Connection::open(as("default", "admin-pw"));
        admin.command({"SET", "lock:{a}", "0123456789abcdef0123456789abcdef", "PX", "60000"});
        admin.command({"SET", "fence:{a}", "41"});
        admin.command({"HSET", "lock:redisson", kHolder, "1"});
        admin.command({"PEXPIRE", "lock:redisson", "30000"});
        admin.command({"RPUSH", "lock:list", "x"});
    }
};

}  // namespace

TEST_F(RestrictedServer, ReaderCanListWatchAndDoctorWithDegradedCommands) {
    Connection c = Connection::open(as("reader", "pw"));  // no INFO, no CONFIG needed to connect
    ScanSummary summary;
    auto records = scanAll(c, {}, &summary);
    ASSERT_EQ(records.size(), 3u);
    EXPECT_EQ(findKey(records, "lock:{a}")->fence, 41);
    EXPECT_EQ(findKey(records, "lock:{a}")->kind, LockKind::Guide);
    const LockRecord* r = findKey(records, "lock:redisson");
    EXPECT_EQ(r->kind, LockKind::RedissonLock);
    EXPECT_EQ(r->fields, (std::vector<HashField>{{kHolder, "1"}}));
    EXPECT_EQ(findKey(records, "lock:list")->type, ValueType::List);
    auto joined = [](const std::vector<std::string>& v) {
        std::string all;
        for (const auto& s : v) all += s + "\n";
        return all;
    };
    EXPECT_TRUE(contains(joined(summary.notes), "MGET denied")) << joined(summary.notes);
    EXPECT_TRUE(contains(joined(summary.notes), "HSCAN and HLEN denied")) << joined(summary.notes);

    ServerFacts facts = probeServer(c);
    EXPECT_EQ(facts.role, ServerRole::Unknown);
    EXPECT_EQ(facts.keyspaceEvents, KeyspaceEvents::Unknown);
    EXPECT_TRUE(contains(joined(facts.notes), "ROLE denied")) << joined(facts.notes);
    EXPECT_TRUE(contains(joined(facts.notes), "CONFIG GET denied")) << joined(facts.notes);

    // includeNonLocks: the list is no lock, but its degraded reads are part of what is checked.
    LockWatch watch(c, {.pollInterval = 20ms, .includeNonLocks = true});
    auto first = watch.step();
    EXPECT_TRUE(first.connected) << first.error;
    EXPECT_EQ(first.changed.size(), 3u);
    auto poll = watch.step();
    EXPECT_TRUE(poll.connected) << poll.error;
    EXPECT_EQ(watch.table().size(), 3u);
}

TEST_F(RestrictedServer, ReaderActionsFailNamingTheDeniedCommandAndChangeNothing) {
    Connection c = Connection::open(as("reader", "pw"));
    lockscope::testing::TempDir dir;
    AuditLog audit(dir.path("audit.jsonl"));
    SafeActions actions(c, &audit);
    auto release = actions.release("lock:{a}", Holder::ofToken("0123456789abcdef0123456789abcdef"));
    EXPECT_EQ(release.outcome, ActionOutcome::Denied);
    EXPECT_TRUE(contains(release.message, "EVALSHA")) << release.message;
    EXPECT_TRUE(contains(release.message, "NOPERM")) << release.message;
    auto del = actions.forceDelete("lock:{a}", true);
    EXPECT_EQ(del.outcome, ActionOutcome::Denied);
    EXPECT_TRUE(contains(del.message, "DEL")) << del.message;
    Connection admin = Connection::open(as("default", "admin-pw"));
    EXPECT_EQ(admin.command({"EXISTS", "lock:{a}"}).integer(), 1);
}

TEST_F(RestrictedServer, DeniedScanIsAPermissionErrorNamingScan) {
    Connection c = Connection::open(as("noscan", "pw"));
    try {
        scanAll(c);
        FAIL() << "scanned without SCAN";
    } catch (const PermissionError& e) {
        EXPECT_TRUE(contains(e.what(), "SCAN on")) << e.what();
    }
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
}

TEST_F(RestrictedServer, ADeniedReadMidPipelineLeavesNoStaleReplyBehind) {
    Connection admin = Connection::open(as("default", "admin-pw"));
    std::vector<std::vector<std::string>> load;
    for (int i = 0; i < 3000; ++i)
        load.push_back({"SET", "lock:" + std::to_string(i), "v" + std::to_string(i)});
    admin.pipeline(load);
    Connection c = Connection::open(as("nopttl", "pw"));
    ScanOptions options;
    options.count = 100;
    Scanner scanner(c, options);
    try {
        scanner.collect();
        FAIL() << "scanned without PTTL";
    } catch (const PermissionError& e) {
        EXPECT_TRUE(contains(e.what(), "PTTL on")) << e.what();
    }
    // Hundreds of replies were in flight when the error came: none may answer a later command.
    EXPECT_EQ(c.command({"GET", "lock:7"}).text(), "v7");
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
    EXPECT_THROW(scanner.readKeys({"lock:1", "lock:2"}), PermissionError);
    EXPECT_EQ(c.command({"GET", "lock:8"}).text(), "v8");
}

TEST_F(RestrictedServer, WrongPasswordOrUserIsAnAuthenticationError) {
    EXPECT_THROW(Connection::open(as("reader", "nope")), AuthenticationError);
    EXPECT_THROW(Connection::open(as("nobody", "pw")), AuthenticationError);
    Connection noAuth = Connection::open(endpoint());
    EXPECT_THROW(scanAll(noAuth), AuthenticationError);
}

TEST(PacerMath, ParsesSharesAndRefusesNonsense) {
    EXPECT_DOUBLE_EQ(Pacer::parseShare("20%"), 0.2);
    EXPECT_DOUBLE_EQ(Pacer::parseShare(" 20 % "), 0.2);
    EXPECT_DOUBLE_EQ(Pacer::parseShare("0.2"), 0.2);
    EXPECT_DOUBLE_EQ(Pacer::parseShare("100%"), 1.0);
    EXPECT_DOUBLE_EQ(Pacer::parseShare("50"), 0.5);
    for (const char* bad :
         {"", "%", "0", "0%", "-5%", "101%", "abc", "1e999", "nan", "20%%", "2O%"})
        EXPECT_THROW(Pacer::parseShare(bad), InvalidArgumentError) << bad;
    EXPECT_EQ(Pacer(0.2).restFor(10ms), 40ms);
    EXPECT_EQ(Pacer(1.0).restFor(10ms), 0ms);
    EXPECT_THROW(Pacer(0.0), InvalidArgumentError);
}

TEST_F(RedisTest, PacedScanRestsBetweenRoundTrips) {
    Connection c = connect();
    std::vector<std::vector<std::string>> load;
    for (int i = 0; i < 20000; ++i) load.push_back({"SET", "lock:" + std::to_string(i), "v"});
    c.pipeline(load);
    ScanOptions fast;
    fast.count = 200;
    // The fastest of three unpaced scans: a busy machine only ever makes a scan slower, and a
    // single preempted run must not pass for the unpaced speed.
    auto unpaced = SteadyClock::duration::max();
    for (int run = 0; run < 3; ++run) {
        auto start = SteadyClock::now();
        EXPECT_EQ(scanAll(c, fast).size(), 20000u);
        unpaced = std::min(unpaced, SteadyClock::now() - start);
    }
    ScanOptions slow = fast;
    slow.maxLoad = 0.2;
    auto t0 = SteadyClock::now();
    EXPECT_EQ(scanAll(c, slow).size(), 20000u);
    auto paced = SteadyClock::now() - t0;
    // At 20% the scan rests four times as long as it works. A speed ratio, checked by the
    // builds without ThreadSanitizer: under TSan the client's own slowed-down work fills the
    // unpaced time (1.26 s unpaced, 3.51 s paced in a --tsan run).
    if (lockscope::testing::kSanitizerSlowdown == 1) {
        EXPECT_GT(paced, 3 * unpaced)
            << "unpaced " << unpaced.count() << " ns, paced " << paced.count() << " ns";
    }
    // And a cancelled paced scan stops resting at once.
    std::stop_source stop;
    slow.maxLoad = 0.01;
    Scanner scanner(c, slow);
    t0 = SteadyClock::now();
    auto summary = scanner.run([&](ScanBatch&) { stop.request_stop(); }, stop.get_token());
    EXPECT_TRUE(summary.cancelled);
    EXPECT_LT(SteadyClock::now() - t0, 2s);
}
