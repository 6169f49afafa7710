// The transport's contract under faults, against a real redis-server behind a
// fault-injecting proxy on loopback: a write whose reply was lost is never re-sent (it is
// an OutcomeUnknownError), a read is retried once on a fresh connection, one deadline per
// command, a cap on reply size, a reply sent twice never answers the next command, bytes
// that are not RESP are an error, and a stop request ends a wait within 200 ms.

#include <thread>

#include "lockscope/errors.h"
#include "lockscope/lock_scripts.h"
#include "proxied_redis_test.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::ProxiedRedisTest;
using lockscope::testing::RedisTest;

namespace {

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

class FaultTest : public ProxiedRedisTest {
  protected:
    std::string value(const std::string& key) {
        return std::string(observer().command({"GET", key}).text());
    }
};

using Clock = std::chrono::steady_clock;

}  // namespace

// Before the transport, the lost INCR was sent again on a new connection and ran twice.
TEST_F(FaultTest, AWriteWhoseReplyWasLostIsNotResentAndSaysOutcomeUnknown) {
    Connection c = viaProxy();
    proxy().inject(ProxyFault::LoseNextReply);
    try {
        c.command({"INCR", "counter"});
        FAIL() << "a lost reply was reported as a result";
    } catch (const OutcomeUnknownError& e) {
        EXPECT_EQ(e.kind(), ErrorKind::OutcomeUnknown);
        EXPECT_TRUE(contains(e.what(), "INCR on " + proxy().endpoint().display())) << e.what();
        EXPECT_TRUE(contains(e.what(), "may have run")) << e.what();
    }
    EXPECT_EQ(value("counter"), "1");                        // it ran once, and only once
    EXPECT_EQ(c.command({"INCR", "counter"}).integer(), 2);  // the connection recovers
}

TEST_F(FaultTest, AScriptWhoseReplyWasLostIsNotResent) {
    Connection c = viaProxy();
    c.eval(scripts::release(), {"lock:a"}, {"tok"});  // loads it: the next EVALSHA runs it
    c.command({"SET", "lock:a", "tok"});
    proxy().inject(ProxyFault::LoseNextReply);
    EXPECT_THROW(c.eval(scripts::release(), {"lock:a"}, {"tok"}), OutcomeUnknownError);
    EXPECT_EQ(observer().command({"EXISTS", "lock:a"}).integer(), 0);  // the release ran
}

TEST_F(FaultTest, AReadWhoseReplyWasLostIsRetriedOnceOnAFreshConnection) {
    observer().command({"SET", "k", "v"});
    Connection c = viaProxy();
    c.command({"PING"});  // the proxy has accepted this connection
    int before = proxy().accepted();
    proxy().inject(ProxyFault::LoseNextReply);
    EXPECT_EQ(c.command({"GET", "k"}).text(), "v");
    EXPECT_EQ(proxy().accepted(), before + 1);
}

TEST_F(FaultTest, AWriteToASocketTheServerClosedWhileIdleIsSentOnANewOneOnce) {
    Connection c = viaProxy();
    std::string id = std::to_string(c.command({"CLIENT", "ID"}).integer());
    observer().command({"CLIENT", "KILL", "ID", id});
    std::this_thread::sleep_for(100ms);  // the proxy passes the close on
    EXPECT_EQ(c.command({"INCR", "counter"}).integer(), 1);
    EXPECT_EQ(value("counter"), "1");
}

// Before: the timeout restarted with every byte, so a dripping reply never timed out.
TEST_F(FaultTest, ADrippingReplyHitsTheCommandDeadline) {
    observer().command({"SET", "k", std::string(100, 'v')});
    Connection c = viaProxy({.commandTimeout = 500ms});
    proxy().setDripInterval(50ms);  // 100+ bytes: over 5 s in all, each byte well in time
    proxy().inject(ProxyFault::DripReplies);
    auto start = Clock::now();
    try {
        c.command({"GET", "k"});
        FAIL() << "a dripped reply finished within the deadline";
    } catch (const TimeoutError& e) {
        EXPECT_TRUE(contains(e.what(), "500 ms")) << e.what();
    }
    EXPECT_LT(Clock::now() - start, 1500ms);
    proxy().inject(ProxyFault::None);
}

// Before: the client buffered whatever the server announced (1.5 GB before the idle timeout).
TEST_F(FaultTest, AHugeAnnouncedBulkFailsAtOnceAgainstTheReplyCap) {
    Connection c = viaProxy({.maxReplyBytes = 1u << 20});
    proxy().inject(ProxyFault::HugeBulk);
    auto start = Clock::now();
    try {
        c.command({"GET", "k"});
        FAIL() << "a 999999999999-byte reply was accepted";
    } catch (const ProtocolError& e) {
        EXPECT_TRUE(contains(e.what(), "999999999999-byte value")) << e.what();
        EXPECT_TRUE(contains(e.what(), "1 MiB reply size cap")) << e.what();
    }
    EXPECT_LT(Clock::now() - start, 1s);
}

TEST_F(FaultTest, AHugeNestedBulkStopsAtTheReplyCap) {
    Connection c = viaProxy({.maxReplyBytes = 1u << 20});
    proxy().inject(ProxyFault::HugeNestedBulk);
    try {
        c.command({"LRANGE", "k", "0", "-1"});
        FAIL() << "an endless reply was accepted";
    } catch (const ProtocolError& e) {
        EXPECT_TRUE(contains(e.what(), "reply size cap")) << e.what();
    }
}

TEST_F(FaultTest, AReplySentTwiceNeverAnswersTheNextCommand) {
    observer().command({"SET", "a", "first"});
    observer().command({"SET", "b", "second"});
    Connection c = viaProxy();
    proxy().inject(ProxyFault::ReplyTwice);
    EXPECT_EQ(c.command({"GET", "a"}).text(), "first");
    std::this_thread::sleep_for(50ms);  // the duplicate arrives
    EXPECT_EQ(c.command({"GET", "b"}).text(), "second");
}

TEST_F(FaultTest, BytesThatAreNotRespAreAProtocolErrorAndAWriteIsOutcomeUnknown) {
    Connection c = viaProxy();
    proxy().inject(ProxyFault::NotResp);
    EXPECT_THROW(c.command({"GET", "k"}), ProtocolError);
    proxy().inject(ProxyFault::NotResp);
    EXPECT_THROW(c.command({"SET", "k", "v"}), OutcomeUnknownError);
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
}

TEST_F(RedisTest, AStopRequestEndsABlockedCommandWithin200Ms) {
    std::stop_source stop;
    Connection c = connect({.commandTimeout = 10s, .stop = stop.get_token()});
    server().pause();
    std::thread canceller([&] {
        std::this_thread::sleep_for(100ms);
        stop.request_stop();
    });
    auto start = Clock::now();
    EXPECT_THROW(c.command({"GET", "k"}), CancelledError);
    auto took = Clock::now() - start;
    canceller.join();
    server().resume();
    EXPECT_LT(took, 300ms);  // 100 ms until the request, then at most 200 ms
}

TEST(ServerErrorCodes, ArePrefixesCallersCanTest) {
    EXPECT_EQ(serverErrorCodeOf("NOSCRIPT No matching script"), ServerErrorCode::NoScript);
    EXPECT_EQ(serverErrorCodeOf("MOVED 3999 127.0.0.1:6381"), ServerErrorCode::Moved);
    EXPECT_EQ(serverErrorCodeOf("ASK 3999 127.0.0.1:6381"), ServerErrorCode::Ask);
    EXPECT_EQ(serverErrorCodeOf("READONLY You can't write"), ServerErrorCode::ReadOnly);
    EXPECT_EQ(serverErrorCodeOf("BUSY Redis is busy"), ServerErrorCode::Busy);
    EXPECT_EQ(serverErrorCodeOf("BUSYKEY Target key"), ServerErrorCode::Other);
    EXPECT_EQ(serverErrorCodeOf("ERR unknown command 'EVAL'"), ServerErrorCode::UnknownCommand);
    EXPECT_EQ(serverErrorCodeOf("ERR syntax error"), ServerErrorCode::Err);
    EXPECT_EQ(serverErrorCodeOf(""), ServerErrorCode::Other);
    EXPECT_EQ(serverErrorCodeOf(std::string("\0\xff", 2)), ServerErrorCode::Other);
    // The older password error and NOAUTH agree now in both connection paths.
    EXPECT_EQ(errorKindOfServerError("ERR invalid password"), ErrorKind::Authentication);
    EXPECT_EQ(errorKindOfServerError("WRONGPASS invalid"), ErrorKind::Authentication);
    EXPECT_EQ(errorKindOfServerError("NOPERM no"), ErrorKind::PermissionDenied);
}

TEST_F(RedisTest, AReplyErrorCarriesItsCode) {
    Connection c = connect();
    c.command({"SET", "s", "x"});
    try {
        c.command({"LPUSH", "s", "y"});
        FAIL();
    } catch (const ReplyError& e) {
        EXPECT_EQ(e.code(), ServerErrorCode::WrongType);
    }
}
