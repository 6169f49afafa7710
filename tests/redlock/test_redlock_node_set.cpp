// The node set's parallel round trip on its own: the primitive the inspector's group view can
// use to read one key on every node at once, over TCP or Unix sockets.

#include "five_redis_servers.h"
#include "lockscope/redlock/redlock.h"
#include "node_set_access.h"

using namespace lockscope;
using lockscope::redlock_detail::NodeSetAccess;
using namespace std::chrono_literals;
using lockscope::testing::FiveRedisServers;

using RedlockNodeSetTest = FiveRedisServers;

// The raw rounds are the library's (node_set_access.h), not the public lock API (issue 20,
// item 15): a user cannot send commands to a lock's nodes behind the lock's back.
template <typename Nodes>
concept SendsRawRounds = requires(Nodes& nodes) {
    nodes.roundTrip(std::vector<RedlockNodeSet::Command>{}, std::chrono::milliseconds(1));
};
template <typename Nodes>
concept EvaluatesOnAll = requires(Nodes& nodes, const Script& script) {
    nodes.evalOnAll(script, {}, {}, std::chrono::milliseconds(1));
};
static_assert(!SendsRawRounds<RedlockNodeSet>);
static_assert(!EvaluatesOnAll<RedlockNodeSet>);

TEST_F(RedlockNodeSetTest, ReadsAKeyOnEveryNodeAtOnceAndReportsTheNodeThatIsDown) {
    for (int i = 0; i < kNodes; ++i)
        observer(i).command({"SET", "lock:{view}", "token-" + std::to_string(i), "PX", "60000"});
    server(3).stop();
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    auto replies =
        NodeSetAccess::roundTrip(*nodes, {{"GET", "lock:{view}"}, {"PTTL", "lock:{view}"}}, 100ms);
    ASSERT_EQ(replies.size(), 5u);
    for (int i : {0, 1, 2, 4}) {
        ASSERT_TRUE(replies[i].ok()) << replies[i].error;
        ASSERT_EQ(replies[i].replies.size(), 2u);
        EXPECT_EQ(replies[i].replies[0].text(), "token-" + std::to_string(i));
        EXPECT_GT(replies[i].replies[1].integer(), 59'000);
    }
    EXPECT_FALSE(replies[3].ok());
    EXPECT_EQ(replies[3].errorKind, ErrorKind::ConnectionRefused);
    EXPECT_TRUE(replies[3].replies.empty());
}

TEST_F(RedlockNodeSetTest, ErrorRepliesStayInPlace) {
    observer(0).command({"HSET", "lock:{typed}", "f", "v"});  // a hash where a string is expected
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    Redlock lock(nodes, "typed");
    RedlockAttempt attempt = lock.tryAcquire();
    EXPECT_TRUE(attempt.succeeded) << attempt.details();  // SET NX on a hash is just "exists"
    auto replies = NodeSetAccess::roundTrip(*nodes, {{"GET", "lock:{typed}"}}, 100ms);
    ASSERT_TRUE(replies[0].ok());
    EXPECT_TRUE(replies[0].replies[0].isError());
    EXPECT_NE(replies[0].replies[0].text().find("WRONGTYPE"), std::string_view::npos);
}

TEST_F(RedlockNodeSetTest, WorksOverUnixSockets) {
    std::vector<Endpoint> sockets;
    for (int i = 0; i < kNodes; ++i)
        sockets.push_back(Endpoint{.unixPath = server(i).unixSocket()});
    auto nodes = std::make_shared<RedlockNodeSet>(std::vector<Endpoint>(sockets));
    EXPECT_EQ(nodes->nodeName(0), "unix://" + server(0).unixSocket());
    Redlock lock(nodes, "local", {.ttl = 2'000ms});
    RedlockAttempt attempt = lock.tryAcquire();
    ASSERT_TRUE(attempt.succeeded) << attempt.details();
    EXPECT_EQ(attempt.granted(), 5);
    EXPECT_EQ(lock.release().granted(), 5);
    EXPECT_EQ(totalKeys(), 0);
}

TEST_F(RedlockNodeSetTest, ARestartedNodeIsReconnectedWithinTheSameRound) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    ASSERT_TRUE(NodeSetAccess::roundTrip(*nodes, {{"PING"}}, 100ms)[2].ok());
    server(2).restart();  // our idle socket to node 2 is now dead
    auto replies = NodeSetAccess::roundTrip(*nodes, {{"PING"}}, 100ms);
    ASSERT_TRUE(replies[2].ok()) << replies[2].error;
    EXPECT_EQ(replies[2].replies[0].text(), "PONG");
}

TEST_F(RedlockNodeSetTest, EmptyCommandsAreRefusedBeforeAnythingIsSent) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    EXPECT_THROW(NodeSetAccess::roundTrip(*nodes, {}, 100ms), InvalidArgumentError);
    EXPECT_THROW(NodeSetAccess::roundTrip(*nodes, {{"PING"}, {}}, 100ms), InvalidArgumentError);
}

// The round encodes its commands once for all nodes: a value with NUL, CR and LF bytes must
// reach every node byte for byte.
TEST_F(RedlockNodeSetTest, SendsBinaryValuesUnchangedToEveryNode) {
    const std::string value("a\0b\r\n$3\r\n*1\xff\0", 13);  // ends in NUL too
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
    auto replies = NodeSetAccess::roundTrip(*nodes, {{"SET", "bin", value}, {"GET", "bin"}}, 100ms);
    for (int i = 0; i < kNodes; ++i) {
        ASSERT_TRUE(replies[i].ok()) << replies[i].error;
        EXPECT_EQ(replies[i].replies[1].text(), value);
        EXPECT_EQ(observer(i).command({"STRLEN", "bin"}).integer(), 13);
    }
}
