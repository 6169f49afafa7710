// Bad input gives clear typed errors before anything is sent, and Redlock's arithmetic
// (quorum, drift allowance, validity) matches the spec. No server needed.

#include <gtest/gtest.h>

#include "lockscope/errors.h"
#include "lockscope/redlock/redlock.h"
#include "lockscope/redlock/validity.h"

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

std::vector<Endpoint> ports(std::initializer_list<int> list) {
    std::vector<Endpoint> out;
    for (int p : list) out.push_back(Endpoint{.host = "127.0.0.1", .port = p});
    return out;
}

// Runs `f`, expects InvalidArgumentError and returns its message for further checks.
template <typename F>
std::string invalidArgument(F f) {
    try {
        f();
    } catch (const InvalidArgumentError& e) {
        EXPECT_EQ(e.kind(), ErrorKind::InvalidArgument);
        return e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << "wrong exception type: " << e.what();
        return {};
    }
    ADD_FAILURE() << "no exception";
    return {};
}

}  // namespace

TEST(RedlockArithmetic, QuorumIsAMajority) {
    EXPECT_EQ(redlockQuorum(1), 1);
    EXPECT_EQ(redlockQuorum(3), 2);
    EXPECT_EQ(redlockQuorum(5), 3);
    EXPECT_EQ(redlockQuorum(7), 4);
}

TEST(RedlockArithmetic, ValidityIsTtlMinusElapsedMinusDrift) {
    // 10 000 ms TTL: drift = 100 ms + 2 ms.
    EXPECT_EQ(redlockDriftAllowance(10'000ms), 102'000us);
    EXPECT_EQ(redlockValidity(10'000ms, 0us), 9'898'000us);
    EXPECT_EQ(redlockValidity(10'000ms, 1'500us), 9'896'500us);
    // Elapsed past TTL − drift: no validity, even though the keys may still exist.
    EXPECT_LE(redlockValidity(10'000ms, 9'898'000us).count(), 0);
    EXPECT_LT(redlockValidity(200ms, 250'000us).count(), 0);
}

TEST(RedlockArithmetic, DefaultNodeTimeoutStaysFarBelowTheTtl) {
    EXPECT_EQ(redlockDefaultNodeTimeout(10'000ms), 50ms);
    EXPECT_EQ(redlockDefaultNodeTimeout(200ms), 20ms);
    EXPECT_EQ(redlockDefaultNodeTimeout(5ms), 1ms);
}

TEST(RedlockValidation, EmptyNodeList) {
    auto message = invalidArgument([] { RedlockNodeSet nodes({}); });
    EXPECT_NE(message.find("empty"), std::string::npos) << message;
}

TEST(RedlockValidation, EvenNumberOfNodes) {
    auto message = invalidArgument([] { RedlockNodeSet nodes(ports({7001, 7002, 7003, 7004})); });
    EXPECT_NE(message.find("odd number of nodes, got 4"), std::string::npos) << message;
    invalidArgument([] { RedlockNodeSet nodes(ports({7001, 7002})); });
}

TEST(RedlockValidation, SameServerTwiceIsNotIndependent) {
    auto message = invalidArgument([] { RedlockNodeSet nodes(ports({7001, 7002, 7001})); });
    EXPECT_NE(message.find("nodes 1 and 3 are the same server"), std::string::npos) << message;
}

TEST(RedlockValidation, BadPortAndBadUrl) {
    invalidArgument([] { RedlockNodeSet nodes(ports({7001, 0, 7003})); });
    auto message = invalidArgument([] {
        RedlockNodeSet::fromUrls(
            {"redis://127.0.0.1:7001", "redis://127.0.0.1:notaport", "redis://127.0.0.1:7003"});
    });
    EXPECT_FALSE(message.empty());
}

TEST(RedlockValidation, TtlAndTimeouts) {
    auto nodes = std::make_shared<RedlockNodeSet>(ports({7001, 7002, 7003}));
    auto zero = invalidArgument([&] { Redlock lock(nodes, "x", {.ttl = 0ms}); });
    EXPECT_NE(zero.find("TTL must be positive"), std::string::npos) << zero;
    invalidArgument([&] { Redlock lock(nodes, "x", {.ttl = -5ms}); });
    auto tiny = invalidArgument([&] { Redlock lock(nodes, "x", {.ttl = 3ms}); });
    EXPECT_NE(tiny.find("leaves no validity"), std::string::npos) << tiny;
    auto slow =
        invalidArgument([&] { Redlock lock(nodes, "x", {.ttl = 1000ms, .nodeTimeout = 600ms}); });
    EXPECT_NE(slow.find("not far below"), std::string::npos) << slow;
    invalidArgument([&] { Redlock lock(nodes, "x", {.ttl = 1000ms, .nodeTimeout = -1ms}); });
}

TEST(RedlockValidation, LockNamesAreCheckedLikeRedisLock) {
    auto nodes = std::make_shared<RedlockNodeSet>(ports({7001, 7002, 7003}));
    invalidArgument([&] { Redlock lock(nodes, ""); });
    invalidArgument([&] { Redlock lock(nodes, "a{b}"); });
    Redlock ok(nodes, "report:daily");
    EXPECT_EQ(ok.key(), "lock:{report:daily}");
    EXPECT_EQ(ok.token().size(), 32u);
    EXPECT_EQ(ok.nodeTimeout(), 50ms);  // the default for a 10 s TTL
    EXPECT_FALSE(ok.isValid());
    EXPECT_THROW(ok.startWatchdog(), InvalidArgumentError);  // not held
}

// Before: a prefix with its own hash tag ("lk{zz}:") was accepted (issue 33, item 5).
TEST(RedlockValidation, PrefixesAreCheckedLikeRedisLocks) {
    auto nodes = std::make_shared<RedlockNodeSet>(ports({7001, 7002, 7003}));
    auto message = invalidArgument([&] { Redlock lock(nodes, "x", {.lockPrefix = "lk{zz}:"}); });
    EXPECT_NE(message.find("lock prefix"), std::string::npos) << message;
    invalidArgument([&] { Redlock lock(nodes, "x", {.lockPrefix = "l\x01:"}); });
    Redlock fine(nodes, "x", {.lockPrefix = "jobs:"});
    EXPECT_EQ(fine.key(), "jobs:{x}");
}

TEST(RedlockValidation, EachLockDrawsItsOwnToken) {
    auto nodes = std::make_shared<RedlockNodeSet>(ports({7001, 7002, 7003}));
    Redlock a(nodes, "x"), b(nodes, "x");
    EXPECT_NE(a.token(), b.token());
}
