// Issue 37 item 4: Connection::pipeline() keeps the README's promise that each command has
// one deadline that progress does not extend. The commands of a pipeline leave together, so
// each reply is due within commandTimeout of that write: a server dripping one byte at a
// time (through the fault proxy, in front of a real redis-server) cannot stretch a pipeline
// to one timeout per reply.

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "lockscope/errors.h"
#include "proxied_redis_test.h"

using namespace lockscope;
using namespace std::chrono_literals;

namespace {

using Clock = std::chrono::steady_clock;

class PipelineDeadline : public lockscope::testing::ProxiedRedisTest {
  protected:
};

std::vector<std::vector<std::string>> pttls(int count) {
    return std::vector<std::vector<std::string>>(std::size_t(count), {"PTTL", "missing"});
}

}  // namespace

// Forty PTTLs in one pipeline, each reply 5 bytes dripped 20 ms a byte: 4 s in all, each
// reply alone well within the 1 s deadline. Before: each reply had a deadline of its own
// from the end of the one before, and the pipeline took the whole 4 s and succeeded.
TEST_F(PipelineDeadline, RepliesTricklingInDoNotExtendThePipelinesDeadline) {
    ConnectionOptions options;
    options.commandTimeout = 1000ms;
    Connection c = viaProxy(options);
    c.command({"PING"});  // connected before the drip starts
    proxy().setDripInterval(20ms);
    proxy().inject(ProxyFault::DripReplies);
    const auto start = Clock::now();
    EXPECT_THROW(c.pipeline(pttls(40)), TimeoutError);
    EXPECT_LT(Clock::now() - start, 1600ms);
    proxy().inject(ProxyFault::None);
}

// The same pipeline without the drip is answered whole, in order: the deadline is the
// command timeout, not a shorter one.
TEST_F(PipelineDeadline, APipelineAnsweredInTimeIsReadWhole) {
    ConnectionOptions options;
    options.commandTimeout = 1000ms;
    Connection c = viaProxy(options);
    observer().command({"SET", "lock:{a}", "tok-a", "PX", "540000"});
    auto replies = c.pipeline({{"GET", "lock:{a}"}, {"PTTL", "missing"}, {"GET", "missing"}});
    ASSERT_EQ(replies.size(), 3u);
    EXPECT_EQ(replies[0].text(), "tok-a");
    EXPECT_EQ(replies[1].integer(), -2);
    EXPECT_TRUE(replies[2].isNil());
}
