// The one loopback proxy the torture run and the fault tests share (lockscope_proxy): its
// network controls — delay, hold, partition, a new upstream — and a canned answer, each
// checked with a real client against real redis-servers.

#include <thread>

#include "lockscope/errors.h"
#include "proxied_redis_test.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::ProxiedRedisTest;
using Clock = std::chrono::steady_clock;

namespace {

class ProxyTest : public ProxiedRedisTest {
  protected:
    Connection viaProxy(std::chrono::milliseconds timeout = 2s) {
        return ProxiedRedisTest::viaProxy({.connectTimeout = timeout, .commandTimeout = timeout});
    }
};

}  // namespace

TEST_F(ProxyTest, ForwardsFaithfullyOnLoopbackWithTheUpstreamsCredentials) {
    EXPECT_EQ(proxy().endpoint().host, "127.0.0.1");
    EXPECT_NE(proxy().endpoint().port, endpoint().port);
    Connection c = viaProxy();
    std::string binary("a\0b\r\n\xff", 6);
    c.command({"SET", "k", binary});
    EXPECT_EQ(observer().command({"GET", "k"}).text(), binary);
    EXPECT_EQ(c.command({"GET", "k"}).text(), binary);
    EXPECT_EQ(proxy().accepted(), 1);
}

TEST_F(ProxyTest, DelayHoldsRepliesBackAndHoldKeepsThemUntilReleased) {
    Connection c = viaProxy();
    proxy().setDelay(200ms);
    auto start = Clock::now();
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
    EXPECT_GE(Clock::now() - start, 200ms);
    proxy().setDelay(0ms);
    proxy().setHold(true);
    std::jthread release([&] {
        std::this_thread::sleep_for(300ms);
        proxy().setHold(false);
    });
    start = Clock::now();
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
    EXPECT_GE(Clock::now() - start, 250ms);
}

TEST_F(ProxyTest, APartitionCutsEveryLinkAndRefusesNewOnesUntilHealed) {
    Connection c = viaProxy(300ms);
    ASSERT_EQ(c.command({"PING"}).text(), "PONG");
    proxy().setPartitioned(true);
    EXPECT_THROW(c.command({"PING"}), IoError);
    EXPECT_THROW(viaProxy(300ms).command({"PING"}), IoError);
    proxy().setPartitioned(false);
    EXPECT_EQ(viaProxy().command({"PING"}).text(), "PONG");
}

TEST_F(ProxyTest, NewLinksGoToTheNewUpstream) {
    LocalRedisServer other;
    Connection::open(other.endpoint()).command({"SET", "where", "other"});
    observer().command({"SET", "where", "first"});
    Connection before = viaProxy();
    ASSERT_EQ(before.command({"PING"}).text(), "PONG");  // its link exists now
    proxy().setUpstream(other.port());
    EXPECT_EQ(before.command({"GET", "where"}).text(), "first") << "an old link moved";
    EXPECT_EQ(viaProxy().command({"GET", "where"}).text(), "other");
    proxy().dropAll();
    EXPECT_EQ(before.command({"GET", "where"}).text(), "other") << "a read reconnects";
}

TEST_F(ProxyTest, AMatchingRequestIsAnsweredAndNeverReachesTheServer) {
    proxy().answerMatching("INCR", ":41\r\n");
    Connection c = viaProxy();
    EXPECT_EQ(c.command({"INCR", "counter"}).integer(), 41);
    EXPECT_EQ(proxy().intercepted(), 1);
    EXPECT_TRUE(observer().command({"GET", "counter"}).isNil());
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
}
