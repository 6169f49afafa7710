// Nodes that cannot be used — nothing listening, a wrong password — are reported per node
// with a typed error kind and a message naming the node; the lock holds only if the rest
// still make a majority, and nothing throws.

#include "five_redis_servers.h"
#include "lockscope/redlock/redlock.h"
#include "lockscope/sandbox/local_redis_server.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::FiveRedisServers;

namespace {

Endpoint nothingListening() {
    return Endpoint{.host = "127.0.0.1", .port = findFreePort()};
}

}  // namespace

TEST(RedlockUnreachable, EveryNodeUnreachableFailsWithConnectionRefused) {
    auto nodes = std::make_shared<RedlockNodeSet>(
        std::vector<Endpoint>({nothingListening(), nothingListening(), nothingListening()}));
    Redlock lock(nodes, "nowhere", {.ttl = 1'000ms});
    RedlockAttempt attempt = lock.tryAcquire();
    EXPECT_FALSE(attempt.succeeded);
    EXPECT_EQ(attempt.errors(), 3);
    EXPECT_EQ(attempt.failure,
              "only 0 of 3 nodes granted (0 refused, 3 erred); a majority needs 2");
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(attempt.nodes[i].error, ErrorKind::ConnectionRefused) << attempt.nodes[i].reason;
        EXPECT_NE(attempt.nodes[i].reason.find(nodes->nodeName(i)), std::string::npos)
            << attempt.nodes[i].reason;
    }
    EXPECT_LT(attempt.elapsed, 50ms);  // refused at once, no timeout to wait out
}

TEST(RedlockUnreachable, UnknownHostIsReportedNotThrown) {
    auto nodes = std::make_shared<RedlockNodeSet>(
        std::vector<Endpoint>({Endpoint{.host = "no-such-host.invalid", .port = 6379}}));
    Redlock lock(nodes, "nowhere", {.ttl = 1'000ms});
    RedlockAttempt attempt = lock.tryAcquire();
    EXPECT_FALSE(attempt.succeeded);
    ASSERT_EQ(attempt.nodes.size(), 1u);
    EXPECT_EQ(attempt.nodes[0].error, ErrorKind::ConnectionRefused) << attempt.nodes[0].reason;
    EXPECT_NE(attempt.nodes[0].reason.find("no-such-host.invalid"), std::string::npos)
        << attempt.nodes[0].reason;
}

class RedlockPasswords : public FiveRedisServers {
  protected:
    LocalRedisServerOptions serverOptions(int) const override {
        return {.configLines = {"requirepass s3cret"}};
    }
    std::vector<Endpoint> withPasswords(std::initializer_list<int> wrong) {
        std::vector<Endpoint> out = endpoints();
        for (auto& e : out) e.password = "s3cret";
        for (int i : wrong) out[i].password = "wrong";
        return out;
    }
};

TEST_F(RedlockPasswords, OneWrongPasswordIsATypedErrorOnThatNodeOnly) {
    auto nodes = std::make_shared<RedlockNodeSet>(std::vector<Endpoint>(withPasswords({2})));
    Redlock lock(nodes, "secured", {.ttl = 2'000ms});
    RedlockAttempt attempt = lock.tryAcquire();
    ASSERT_TRUE(attempt.succeeded) << attempt.details();
    EXPECT_EQ(attempt.granted(), 4);
    const NodeOutcome& bad = attempt.nodes[2];
    EXPECT_EQ(bad.verdict, NodeVerdict::Error);
    EXPECT_EQ(bad.error, ErrorKind::Authentication);
    EXPECT_EQ(bad.reason.rfind("AUTH on " + server(2).url() + ": WRONGPASS", 0), 0u) << bad.reason;
    EXPECT_EQ(bad.reason.find("wrong"), std::string::npos)
        << "the password must never appear: " << bad.reason;
    EXPECT_FALSE(observer(2).command({"EXISTS", lock.key()}).integer());
    EXPECT_TRUE(lock.release().errors() == 1);
    EXPECT_EQ(totalKeys(), 0);
}

TEST_F(RedlockPasswords, AMajorityOfWrongPasswordsFailsAndLeavesNoKey) {
    auto nodes = std::make_shared<RedlockNodeSet>(std::vector<Endpoint>(withPasswords({0, 1, 4})));
    Redlock lock(nodes, "secured", {.ttl = 2'000ms});
    RedlockAttempt attempt = lock.tryAcquire();
    EXPECT_FALSE(attempt.succeeded);
    EXPECT_EQ(attempt.granted(), 2);
    for (int i : {0, 1, 4}) EXPECT_EQ(attempt.nodes[i].error, ErrorKind::Authentication);
    EXPECT_EQ(totalKeys(), 0);
}

TEST_F(RedlockPasswords, NoPasswordAtAllIsAnAuthenticationErrorToo) {
    auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());  // no passwords given
    Redlock lock(nodes, "secured", {.ttl = 2'000ms});
    RedlockAttempt attempt = lock.tryAcquire();
    EXPECT_FALSE(attempt.succeeded);
    for (const auto& node : attempt.nodes) {
        EXPECT_EQ(node.error, ErrorKind::Authentication) << node.reason;
        EXPECT_NE(node.reason.find("NOAUTH"), std::string::npos) << node.reason;
    }
}
