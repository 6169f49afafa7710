// The streaming pipeline (send / flush / receive) the scanner uses: replies in order, and the
// command observer hears every streamed command with its reply and its latency.
#include <thread>

#include "lockscope/errors.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;

TEST_F(RedisTest, StreamedCommandsReachTheObserverWithReplyAndLatency) {
    Connection c = connect();
    c.command({"SET", "lock:a", "tok"});
    std::vector<CommandEvent> events;
    c.setObserver([&](const CommandEvent& e) { events.push_back(e); });
    c.send({"GET", "lock:a"});
    c.send({"PTTL", "lock:a"});
    // A slow command in the stream: its latency counts from flush() to its reply.
    c.send({"EVAL",
            "local t0 = redis.call('TIME') repeat local t = redis.call('TIME') until (t[1] - "
            "t0[1]) * 1000000 + (t[2] - t0[2]) > 20000 return 7",
            "0"});
    c.flush();
    EXPECT_TRUE(events.empty()) << "reported before its reply arrived";
    std::this_thread::sleep_for(30ms);  // time the client takes after the reply is in
    EXPECT_EQ(c.receive().text(), "tok");
    EXPECT_EQ(c.receive().integer(), -1);
    EXPECT_EQ(c.receive().integer(), 7);
    ASSERT_EQ(events.size(), 3u);
    EXPECT_EQ(events[0].command, "GET lock:a");
    EXPECT_NE(events[0].replySummary.find("tok"), std::string::npos) << events[0].replySummary;
    EXPECT_EQ(events[1].command, "PTTL lock:a");
    EXPECT_EQ(events[1].replySummary, "(integer) -1");
    EXPECT_TRUE(events[2].command.starts_with("EVAL ")) << events[2].command;
    EXPECT_EQ(events[2].replySummary, "(integer) 7");
    EXPECT_GE(events[2].latency, 20ms);
    EXPECT_GE(events[0].latency, 20ms) << "the EVAL ran before the replies were read";
}

TEST_F(RedisTest, StreamedCommandsSentWithoutObserverAreNotReportedLater) {
    Connection c = connect();
    std::vector<std::string> seen;
    c.send({"PING"});  // no observer yet: nothing to report, and no cost
    c.send({"ECHO", "one"});
    c.flush();
    c.setObserver(
        [&](const CommandEvent& e) { seen.push_back(e.command + " -> " + e.replySummary); });
    c.send({"ECHO", "two"});
    c.flush();
    EXPECT_EQ(c.receive().text(), "PONG");
    EXPECT_EQ(c.receive().text(), "one");
    EXPECT_EQ(c.receive().text(), "two");
    ASSERT_EQ(seen.size(), 1u);
    EXPECT_TRUE(seen[0].starts_with("ECHO two -> ")) << seen[0];
    EXPECT_NE(seen[0].find("two", seen[0].find(" -> ")), std::string::npos) << seen[0];
    // receive() flushes what is still queued rather than waiting forever.
    c.send({"ECHO", "three"});
    EXPECT_EQ(c.receive().text(), "three");
    // And the plain command path still works after streaming.
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
}

TEST_F(RedisTest, ReadOnlyStreamingRefusesWritesBeforeSendingAnything) {
    Connection c = connect({.readOnly = true});
    int reported = 0;
    c.setObserver([&](const CommandEvent&) { ++reported; });
    EXPECT_THROW(c.send({"SET", "lock:x", "1"}), ReadOnlyError);
    c.send({"GET", "lock:x"});
    EXPECT_TRUE(c.receive().isNil());
    EXPECT_EQ(reported, 1);
    EXPECT_EQ(keyCount(), 0);
}
