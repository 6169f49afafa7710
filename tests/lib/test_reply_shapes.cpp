// Replies of the wrong shape for their command, through the fault proxy in front of a real
// redis-server: never read as data. A nil for PTTL, three values for an MGET of two keys,
// an integer among SCAN's keys, a reply sent twice or one no request asked for: the
// connection is reset and the read tried once more on a fresh connection; a read that is
// malformed again is a MalformedReplyError saying the value is unreadable. A header that
// announces more than the reply cap fails at the header, at any depth; streamed commands
// flushed together share one deadline that replies trickling in do not extend.

#include <chrono>
#include <thread>

#include "core/transport/resp_frames.h"
#include "lockscope/errors.h"
#include "proxied_redis_test.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::ProxiedRedisTest;

namespace {

using Clock = std::chrono::steady_clock;

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

class ReplyShapeTest : public ProxiedRedisTest {
  protected:
    void SetUp() override {
        ProxiedRedisTest::SetUp();
        observer().command({"SET", "lock:{a}", "tok-a", "PX", "540000"});
        observer().command({"SET", "lock:{b}", "tok-b", "PX", "540000"});
    }
};

// Each of these, as PTTL's answer, is no PTTL answer.
const char* const kNotAnInteger[] = {"$-1\r\n",           "*-1\r\n",
                                     "+OK\r\n",           "$3\r\n540\r\n",
                                     "*1\r\n:540000\r\n", "*2\r\n*1\r\n:1\r\n:2\r\n"};

}  // namespace

TEST_F(ReplyShapeTest, APttlAnsweredWithAnythingButAnIntegerIsReadAgainOnAFreshConnection) {
    for (const char* wrong : kNotAnInteger) {
        Connection c = viaProxy();
        c.command({"PING"});  // the proxy has accepted this connection
        const int before = proxy().accepted();
        proxy().rewriteReplies("PTTL", ReplyRewrite::Replace, wrong, 1);
        Reply pttl = c.command({"PTTL", "lock:{a}"});
        ASSERT_TRUE(pttl.view().isInteger()) << wrong << " was read as " << pttl.summary();
        EXPECT_GT(pttl.integer(), 500000) << wrong;  // the real PTTL, not 0
        EXPECT_EQ(proxy().accepted(), before + 1) << "read again on a fresh connection";
    }
}

TEST_F(ReplyShapeTest, AReadMalformedTwiceIsUnreadableNeverAValue) {
    Connection c = viaProxy();
    proxy().rewriteReplies("PTTL", ReplyRewrite::Replace, "$-1\r\n");
    try {
        Reply r = c.command({"PTTL", "lock:{a}"});
        FAIL() << "a nil was shown as the PTTL " << r.summary();
    } catch (const MalformedReplyError& e) {
        EXPECT_EQ(e.kind(), ErrorKind::Protocol);
        EXPECT_TRUE(contains(e.what(), "PTTL on " + proxy().endpoint().display())) << e.what();
        EXPECT_TRUE(contains(e.what(), "(nil) where an integer was expected")) << e.what();
        EXPECT_TRUE(contains(e.what(), "unreadable")) << e.what();
    }
    EXPECT_EQ(proxy().rewritten(), 2);  // tried once more, then given up
    proxy().clearRewrites();
    EXPECT_GT(c.command({"PTTL", "lock:{a}"}).integer(), 500000);  // it recovers
}

TEST_F(ReplyShapeTest, AnMgetWithTheWrongNumberOfValuesOrANonArrayIsNeverRead) {
    const char* const wrong[] = {"*3\r\n$1\r\n0\r\n$1\r\n0\r\n$1\r\n0\r\n",
                                 "$-1\r\n",
                                 ":2\r\n",
                                 "*-1\r\n",
                                 "+OK\r\n",
                                 "*2\r\n*1\r\n$1\r\n0\r\n$1\r\n0\r\n",
                                 "*2\r\n:1\r\n$1\r\n0\r\n"};
    for (const char* bytes : wrong) {
        Connection c = viaProxy();
        proxy().rewriteReplies("MGET", ReplyRewrite::Replace, bytes);
        c.send({"MGET", "lock:{a}", "lock:{b}"});
        EXPECT_THROW(c.receive(), MalformedReplyError) << bytes;
        proxy().clearRewrites();
        c.send({"MGET", "lock:{a}", "lock:{b}"});
        Reply values = c.receive();  // a clean stream after the reset
        ASSERT_EQ(values.size(), 2u);
        EXPECT_EQ(values[0].text(), "tok-a");
    }
}

TEST_F(ReplyShapeTest, ScanPagesWithIntegerKeysOrABadCursorAreNotPages) {
    const char* const wrong[] = {"*2\r\n$1\r\n0\r\n*1\r\n:5\r\n", "*2\r\n:0\r\n*0\r\n",
                                 "*2\r\n$1\r\nx\r\n*0\r\n", "*1\r\n$1\r\n0\r\n", "$-1\r\n"};
    for (const char* bytes : wrong) {
        Connection c = viaProxy();
        proxy().rewriteReplies("SCAN", ReplyRewrite::Replace, bytes);
        EXPECT_THROW(c.command({"SCAN", "0", "MATCH", "lock:*"}), MalformedReplyError) << bytes;
        proxy().clearRewrites();
    }
}

// A reply sent twice inside a pipeline put every later reply one step out: the second
// PTTL showed the first key's, MGET an integer. Now the misfit is seen, the unanswered
// reads go again on a fresh connection, and each answer is its own command's.
TEST_F(ReplyShapeTest, ADuplicatedOrExtraReplyInAStreamNeverAnswersAnotherCommand) {
    observer().command({"PEXPIRE", "lock:{b}", "300000"});
    for (ReplyRewrite how : {ReplyRewrite::Twice, ReplyRewrite::Append}) {
        Connection c = viaProxy();
        c.command({"PING"});  // the proxy has accepted this connection
        const int before = proxy().accepted();
        proxy().rewriteReplies("PTTL", how, ":1\r\n", 1);
        c.send({"PTTL", "lock:{a}"});
        c.send({"PTTL", "lock:{b}"});
        c.send({"MGET", "lock:{a}", "lock:{b}"});
        c.flush();
        const std::int64_t a = c.receive().integer(), b = c.receive().integer();
        Reply values = c.receive();
        EXPECT_GT(a, 500000);
        EXPECT_GT(b, 200000);
        EXPECT_LE(b, 300000) << "lock:{b}'s PTTL is its own";
        ASSERT_EQ(values.size(), 2u);
        EXPECT_EQ(values[1].text(), "tok-b");
        EXPECT_EQ(proxy().accepted(), before + 1);
        proxy().clearRewrites();
    }
}

// A duplicate of a stream's last reply arrives after every reply was taken: the next
// stream starts on a fresh connection instead of reading it as its first answer.
TEST_F(ReplyShapeTest, ADuplicateAfterAStreamDoesNotAnswerTheNextStream) {
    Connection c = viaProxy();
    proxy().rewriteReplies("GET", ReplyRewrite::Twice, {}, 1);
    c.send({"GET", "lock:{a}"});
    EXPECT_EQ(c.receive().text(), "tok-a");
    std::this_thread::sleep_for(100ms);  // the copy has arrived
    c.send({"GET", "lock:{b}"});
    EXPECT_EQ(c.receive().text(), "tok-b");
}

TEST_F(ReplyShapeTest, AHugeArrayHeaderFailsAtTheHeaderAtEveryDepth) {
    const std::string nests[] = {"*2147483647\r\n", "*1\r\n*2147483647\r\n",
                                 "*2\r\n:1\r\n*1\r\n*2147483647\r\n", "*1\r\n%1073741824\r\n",
                                 "*1\r\n*1\r\n$99999999999\r\n"};
    ConnectionOptions options;
    options.commandTimeout = 2000ms;
    for (const auto& bytes : nests) {
        Connection c = viaProxy(options);
        proxy().rewriteReplies("EVAL", ReplyRewrite::Replace, bytes);
        auto start = Clock::now();
        try {
            c.command({"EVAL", "return 1", "0"});
            FAIL() << "a reply was read from " << bytes;
        } catch (const ProtocolError& e) {
            EXPECT_TRUE(contains(e.what(), "reply size cap")) << e.what();
        } catch (const OutcomeUnknownError& e) {
            EXPECT_TRUE(contains(e.what(), "reply size cap")) << e.what();
        }
        // At the header: long before the 2 s deadline, with no gigabyte array to free.
        EXPECT_LT(Clock::now() - start, 500ms) << bytes;
        proxy().clearRewrites();
    }
}

// Forty PTTLs flushed together share the command deadline: a server dripping one byte at a
// time (5 bytes a reply, 20 ms a byte: 4 s in all) cannot stretch them past it, though
// each reply alone comes well within it.
TEST_F(ReplyShapeTest, StreamedRepliesTricklingInDoNotExtendTheDeadline) {
    ConnectionOptions options;
    options.commandTimeout = 1000ms;
    Connection c = viaProxy(options);
    proxy().setDripInterval(20ms);
    proxy().inject(ProxyFault::DripReplies);
    for (int i = 0; i < 40; ++i) c.send({"PTTL", "missing"});
    c.flush();
    auto start = Clock::now();
    int read = 0;
    EXPECT_THROW(
        {
            for (; read < 40; ++read) c.receive();
        },
        TimeoutError);
    EXPECT_LT(read, 40);
    EXPECT_LT(Clock::now() - start, 1600ms);
    proxy().inject(ProxyFault::None);
}

TEST(RespFrames, FindsEachReplyEndWhereverTheBytesAreSplit) {
    const std::string stream =
        ":1\r\n$5\r\nhello\r\n*2\r\n$1\r\na\r\n*-1\r\n+OK\r\n*0\r\n$0\r\n\r\n%1\r\n+k\r\n:2\r\n";
    const std::vector<std::size_t> whole{4, 15, 31, 36, 40, 46, 58};
    for (std::size_t step = 1; step <= stream.size(); ++step) {
        transport::RespFrames frames;
        std::vector<std::size_t> ends;
        for (std::size_t at = 0; at < stream.size(); at += step) {
            std::vector<std::size_t> part;
            const std::size_t n = std::min(step, stream.size() - at);
            ASSERT_FALSE(frames.feed(stream.data() + at, n, &part));
            for (std::size_t e : part) ends.push_back(at + e);
        }
        EXPECT_EQ(ends, whole) << "split every " << step << " bytes";
        EXPECT_TRUE(frames.atBoundary());
    }
    transport::RespFrames notResp;
    EXPECT_TRUE(notResp.feed("HTTP/1.1 400\r\n", 14));
}
