// Sentinel on real servers (a primary, a replica, three Sentinels): URL parsing and its bad
// input, discovery, a SENTINEL FAILOVER during a watch (the watch follows, the release after
// it reaches the new primary), all Sentinels down, a wrong service name and the Sentinels'
// own password (clear errors).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <future>
#include <sstream>
#include <thread>

#include "lockscope/errors.h"
#include "lockscope/sentinel.h"
#include "lockscope/sentinel_switches.h"
#include "redis_fixture.h"
#include "sentinel_fixture.h"

namespace lockscope {
namespace {

using namespace std::chrono_literals;

struct CliRun {
    int code = -1;
    std::string out, err;
};

CliRun cli(const std::string& args) {
    static testing::TempDir dir;
    static std::atomic<int> n{0};
    std::string errFile = dir.path("stderr" + std::to_string(++n));
    std::string cmd = "LOCKSCOPE_AUDIT_LOG='" + dir.path("audit.jsonl") + "' " + LOCKSCOPE_CLI +
                      " " + args + " 2>'" + errFile + "'";
    CliRun run;
    std::FILE* p = popen(cmd.c_str(), "r");
    char buf[4096];
    for (std::size_t k; (k = std::fread(buf, 1, sizeof buf, p)) > 0;) run.out.append(buf, k);
    int status = pclose(p);
    run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream e(errFile);
    std::stringstream ss;
    ss << e.rdbuf();
    run.err = ss.str();
    return run;
}

TEST(SentinelUrl, ParsesTheLettuceFormAndRejectsBadInput) {
    auto t = parseSentinelUrl(
        "redis-sentinel://app:s%40cret@10.0.0.1:26380,[::1],sent-2:26381/3"
        "?sentinel-password=sp#my%20master");
    ASSERT_EQ(t.sentinels.size(), 3u);
    EXPECT_EQ(t.sentinels[0], (SentinelAddress{"10.0.0.1", 26380}));
    EXPECT_EQ(t.sentinels[1], (SentinelAddress{"::1", 26379}));
    EXPECT_EQ(t.sentinels[2], (SentinelAddress{"sent-2", 26381}));
    EXPECT_EQ(t.data.user, "app");
    EXPECT_EQ(t.data.password, "s@cret");
    EXPECT_EQ(t.data.db, 3);
    EXPECT_EQ(t.sentinelPassword, "sp");
    EXPECT_EQ(t.service, "my master");
    EXPECT_EQ(t.display(), "redis-sentinel://10.0.0.1:26380,[::1]:26379,sent-2:26381/3#my master");
    EXPECT_EQ(t.display().find("cret"), std::string::npos);
    EXPECT_TRUE(parseSentinelUrl("rediss-sentinel://h#m").data.tls.enabled);
    for (const char* bad :
         {"", "redis://h#m", "redis-sentinel://h", "redis-sentinel://h#", "redis-sentinel://#m",
          "redis-sentinel://h:0#m", "redis-sentinel://h:99999#m", "redis-sentinel://h,#m",
          "redis-sentinel://h:x#m", "redis-sentinel://[::1#m", "redis-sentinel://h/x#m",
          "redis-sentinel://h?nope=1#m", "redis-sentinel://u:%zz@h#m", "redis-sentinel://h\n#m"}) {
        EXPECT_THROW(parseSentinelUrl(bad), InvalidArgumentError) << bad;
    }
    try {
        parseSentinelUrl("redis-sentinel://u:topsecret@h:0#m");
    } catch (const InvalidArgumentError& e) {
        EXPECT_EQ(std::string(e.what()).find("topsecret"), std::string::npos);
    }
    EXPECT_THROW(parseSentinelUrl("redis-sentinel://" + std::string(5000, 'h') + "#m"),
                 InvalidArgumentError);
}

class SentinelTest : public ::testing::Test {
  protected:
    testing::SentinelGroup group;
};

TEST_F(SentinelTest, DiscoversThePrimaryFollowsAFailoverAndGivesClearErrors) {
    Endpoint primary = discoverPrimary(group.target());
    EXPECT_EQ(primary.port, group.server(0).port());

    // A Sentinel that is down is skipped: the next one answers.
    auto target = group.target();
    target.sentinels.insert(target.sentinels.begin(), SentinelAddress{"127.0.0.1", 1});
    EXPECT_EQ(discoverPrimary(target).port, group.server(0).port());

    auto wrong = group.target();
    wrong.service = "no-such-service";
    try {
        discoverPrimary(wrong);
        ADD_FAILURE() << "a wrong service name was accepted";
    } catch (const UnknownServiceError& e) {  // a window stops retrying on this one
        EXPECT_NE(std::string(e.what()).find("no-such-service"), std::string::npos) << e.what();
    }
    CliRun r = cli("list --json -u '" + group.url().substr(0, group.url().find('#')) + "#nope'");
    EXPECT_EQ(r.code, 1) << r.err;
    EXPECT_NE(r.err.find("no primary found for service \"nope\""), std::string::npos) << r.err;

    group.failover();
    EXPECT_EQ(discoverPrimary(group.target()).port, group.server(1).port());
}

TEST_F(SentinelTest, AWatchFollowsAFailoverAndTheReleaseAfterItReachesTheNewPrimary) {
    {
        Connection c = Connection::open(group.server(0).endpoint());
        c.command({"SET", "lock:{job}", "tok-1", "PX", "120000"});
        c.command({"WAIT", "1", "2000"});
    }
    CliRun list = cli("list --json -u '" + group.url() + "'");
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_NE(list.out.find("lock:{job}"), std::string::npos);
    EXPECT_NE(list.out.find(group.server(0).url()), std::string::npos);

    auto watch = std::async(std::launch::async, [&] {
        return cli("watch --json --interval 200 --for 20 -u '" + group.url() + "'");
    });
    std::this_thread::sleep_for(1500ms);
    group.failover();
    {
        Connection c = Connection::open(group.server(1).endpoint());
        c.command({"SET", "lock:{after}", "tok-2", "PX", "120000"});
    }
    CliRun w = watch.get();
    EXPECT_EQ(w.code, 0) << w.err;
    EXPECT_NE(w.out.find("\"event\":\"failover\""), std::string::npos) << w.out;
    EXPECT_NE(w.out.find(group.server(1).url()), std::string::npos) << w.out;
    EXPECT_NE(w.out.find("lock:{after}"), std::string::npos) << w.out;  // read from the new one

    CliRun release = cli("release 'lock:{job}' --token tok-1 -u '" + group.url() + "'");
    EXPECT_EQ(release.code, 0) << release.err;
    Connection c = Connection::open(group.server(1).endpoint());
    EXPECT_EQ(c.command({"EXISTS", "lock:{job}"}).integer(), 0);
}

// A watch hears the failover from a Sentinel (+switch-master), not only from its next question.
TEST_F(SentinelTest, ASwitchMasterIsHeardOnASentinelSubscription) {
    SentinelSwitches switches(group.target());
    ASSERT_TRUE(switches.subscribed());
    EXPECT_FALSE(switches.switched(100ms));
    auto other = group.target();
    other.service = "another-service";
    SentinelSwitches elsewhere(other);
    group.failover();
    bool heard = false;
    for (int i = 0; i < 50 && !heard; ++i) heard = switches.switched(100ms);
    EXPECT_TRUE(heard);
    EXPECT_FALSE(elsewhere.switched(200ms));  // a switch of another service is not ours
}

// --scan-replicas behind Sentinel scans a replica the Sentinels list, not the primary.
TEST_F(SentinelTest, ScanReplicasReadsAReplicaFromSentinelReplicas) {
    {
        Connection c = Connection::open(group.server(0).endpoint());
        c.command({"SET", "lock:{job}", "tok-1", "PX", "120000"});
        c.command({"WAIT", "1", "2000"});
    }
    // The Sentinels learn the replica from the primary's INFO, a moment after they start.
    auto replicas = discoverReplicas(group.target());
    for (int i = 0; i < 100 && replicas.empty(); ++i) {
        std::this_thread::sleep_for(100ms);
        replicas = discoverReplicas(group.target());
    }
    ASSERT_EQ(replicas.size(), 1u);
    EXPECT_EQ(replicas[0].port, group.server(1).port());
    CliRun list = cli("list --json --scan-replicas -u '" + group.url() + "'");
    ASSERT_EQ(list.code, 0) << list.err;
    EXPECT_NE(list.out.find("lock:{job}"), std::string::npos) << list.out;
    EXPECT_NE(list.out.find(group.server(1).url()), std::string::npos) << list.out;
    EXPECT_NE(list.err.find("scanned replica"), std::string::npos) << list.err;
    // Read on a replica as asked: not the "point LockScope at the primary" advice, but the
    // failover risk of a replicated primary.
    EXPECT_EQ(list.out.find("on-replica"), std::string::npos) << list.out;
    EXPECT_NE(list.out.find("\"replicated\""), std::string::npos) << list.out;
    CliRun table = cli("list --scan-replicas -u '" + group.url() + "'");
    ASSERT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find("INSTANCE"), std::string::npos) << table.out;
}

// Sentinels with a password of their own (requirepass): reached with it, from the URL's
// ?sentinel-password= too; without it or with a wrong one, an AuthenticationError (a window
// does not retry it, the CLI exits "cannot connect") that never echoes the password.
TEST(SentinelPassword, TheSentinelsPasswordIsGivenAndARefusalIsAnAuthenticationError) {
    testing::SentinelGroup group("mymaster", "s3nt #&%=pw");
    EXPECT_EQ(discoverPrimary(group.target()).port, group.server(0).port());
    for (const char* given : {"", "wrong-pw"}) {
        auto target = group.target();
        target.sentinelPassword = given;
        try {
            discoverPrimary(target);
            ADD_FAILURE() << "the Sentinels answered without their password: " << given;
        } catch (const AuthenticationError& e) {
            const std::string what = e.what();
            EXPECT_NE(what.find("no primary found for service \"mymaster\""), std::string::npos)
                << what;
            EXPECT_NE(what.find(*given ? "WRONGPASS" : "NOAUTH"), std::string::npos) << what;
            EXPECT_EQ(what.find("s3nt"), std::string::npos) << what;
        }
    }
    CliRun list = cli("list --json -u '" + group.url() + "'");
    EXPECT_EQ(list.code, 0) << list.err;
    CliRun wrong =
        cli("list --json --sentinel 127.0.0.1:" + std::to_string(group.sentinel(0).port()) +
            " --service mymaster --sentinel-password wrong-pw");
    EXPECT_EQ(wrong.code, 6) << wrong.err;
    EXPECT_NE(wrong.err.find("WRONGPASS"), std::string::npos) << wrong.err;
}

TEST_F(SentinelTest, AllSentinelsDownIsAClearError) {
    const std::string url = group.url();
    for (std::size_t i = 0; i < group.sentinelCount(); ++i) group.sentinel(i).stop();
    try {
        discoverPrimary(group.target());
        ADD_FAILURE() << "no error with every Sentinel down";
    } catch (const ConnectionRefusedError& e) {
        EXPECT_NE(std::string(e.what()).find("no Sentinel answered"), std::string::npos);
    }
    CliRun r = cli("list -u '" + url + "'");
    EXPECT_EQ(r.code, 6) << r.err;
    EXPECT_NE(r.err.find("no Sentinel answered (asked 3 Sentinels"), std::string::npos) << r.err;
    CliRun flags = cli("list --sentinel 127.0.0.1:" + std::to_string(group.sentinel(0).port()) +
                       " --service mymaster");
    EXPECT_EQ(flags.code, 6) << flags.err;
    CliRun noService = cli("list --sentinel 127.0.0.1:1");
    EXPECT_EQ(noService.code, 2) << noService.err;
}

}  // namespace
}  // namespace lockscope
