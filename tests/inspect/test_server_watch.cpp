// The watch engine on a real server: the rows it reports, a restart, a node down and back,
// bad options, and patterns changed while it runs.
#include <gtest/gtest.h>

#include <future>

#include "lockscope/errors.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "redis_fixture.h"
#include "server_watch_driver.h"

namespace lockscope::testing {
namespace {

using namespace std::chrono_literals;
using inspect::NodeState;
using inspect::WatchEvent;

class ServerWatchTest : public RedisTest {
  protected:
    inspect::ServerWatchOptions options() {
        inspect::ServerWatchOptions o;
        o.endpoint = endpoint();
        o.watch.pollInterval = 100ms;
        o.watch.scan.patterns = {"lock:*"};
        return o;
    }
};

bool stateSeen(const std::vector<WatchEvent>& events, NodeState state) {
    for (const auto& e : events)
        if (e.kind == WatchEvent::Kind::NodeState && e.state == state) return true;
    return false;
}

TEST_F(ServerWatchTest, ReportsRowsAddedAndRemovedOnAPlainServer) {
    observer().command({"SET", "lock:a", "tok-a", "PX", "60000"});
    observer().command({"SET", "other", "x"});
    inspect::ServerWatch watch(options());
    ServerWatchDriver d(watch);
    d.open();
    EXPECT_FALSE(watch.isCluster());
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "lock:a"); }, 5s));
    EXPECT_FALSE(shown(d.events(), "other"));  // not under the patterns
    observer().command({"SET", "lock:b", "tok-b", "PX", "60000"});
    observer().command({"DEL", "lock:a"});
    ASSERT_TRUE(d.runUntil(
        [](const auto& ev) { return shown(ev, "lock:b") && removed(ev, "lock:a"); }, 10s));
    const auto nodes = watch.nodes();
    ASSERT_EQ(nodes.size(), 1u);
    EXPECT_EQ(nodes[0].name, endpoint().display());
    EXPECT_EQ(nodes[0].state, NodeState::Connected);
    EXPECT_TRUE(nodes[0].scanned);
}

// A server restarted empty: the node is reported down, then up again, and the rows it held
// before are removed with the restart said (not "deleted").
TEST_F(ServerWatchTest, AServerRestartedEmptyIsReportedAsARestart) {
    observer().command({"SET", "lock:a", "tok-a", "PX", "60000"});
    inspect::ServerWatch watch(options());
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "lock:a"); }, 5s));
    server().stop();
    ASSERT_TRUE(
        d.runUntil([](const auto& ev) { return stateSeen(ev, NodeState::Reconnecting); }, 5s));
    server().start();
    bool restartSaid = false;
    ASSERT_TRUE(d.runUntil(
        [&](const auto& ev) {
            for (const auto& e : ev)
                if (e.kind == WatchEvent::Kind::Rows && !e.rows.restartNote.empty() &&
                    std::find(e.rows.removed.begin(), e.rows.removed.end(), "lock:a") !=
                        e.rows.removed.end())
                    restartSaid = true;
            return restartSaid;
        },
        15s));
    EXPECT_EQ(watch.nodes()[0].state, NodeState::Connected);
}

// One backoff: the retries of a node that is down are 500 ms apart, doubling to 10 s.
TEST_F(ServerWatchTest, ANodeDownIsRetriedWithTheBackoff) {
    inspect::ServerWatch watch(options());
    ServerWatchDriver d(watch);
    d.open();
    d.runFor(300ms);
    server().stop();
    d.runFor(3500ms);
    std::vector<std::chrono::milliseconds> waits;
    for (const auto& e : d.events())
        if (e.kind == WatchEvent::Kind::NodeState && e.state == NodeState::Reconnecting)
            waits.push_back(e.retryIn);
    ASSERT_FALSE(waits.empty());
    EXPECT_EQ(waits.front(), 500ms);
    const int failed = watch.nodes()[0].pollsFailed;
    // 500 + 1000 + 2000 ms: three or four attempts in 3.5 s, not one per 100 ms interval.
    EXPECT_GE(failed, 2);
    EXPECT_LE(failed, 5);
}

TEST_F(ServerWatchTest, BadOptionsAreRefusedAndAWrongAddressFailsAtOpen) {
    auto o = options();
    o.watch.budget = 0;
    EXPECT_THROW(inspect::ServerWatch{o}, InvalidArgumentError);
    o = options();
    o.watch.scan.patterns = {""};
    EXPECT_THROW(inspect::ServerWatch{o}, InvalidArgumentError);
    o = options();
    o.endpoint.port = 1;  // nothing listens there
    inspect::ServerWatch watch(o);
    EXPECT_THROW(watch.open(), IoError);
    EXPECT_TRUE(watch.step().empty());  // not opened: nothing read, nothing reported
}

// New patterns apply at once: the next round rescans with them, and a bad one changes nothing.
TEST_F(ServerWatchTest, PatternsChangedApplyAtTheNextRound) {
    observer().command({"SET", "lock:a", "tok-a", "PX", "60000"});
    observer().command(
        {"SET", "job-lock:default:b", "ADDED:2024-01-01T00:00:00Z@h", "PX", "60000"});
    inspect::ServerWatch watch(options());
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "lock:a"); }, 5s));
    EXPECT_THROW(watch.setPatterns({"job-lock:*", std::string(2000, 'x')}), InvalidArgumentError);
    EXPECT_EQ(watch.options().watch.scan.patterns, std::vector<std::string>{"lock:*"});
    auto events = watch.setPatterns({"job-lock:*"});
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].note.id, inspect::WatchNoteId::PatternsChanged);
    ASSERT_TRUE(d.runUntil(
        [](const auto& ev) { return shown(ev, "job-lock:default:b") && removed(ev, "lock:a"); },
        5s));
}

// Issue 32: an edited budget reaches the running watch (its rows stay) and is kept by the
// watch a node opens later (here for new patterns); a budget outside (0, 1] changes nothing.
TEST_F(ServerWatchTest, ABudgetChangedReachesTheWatchAndOutlivesNewPatterns) {
    observer().command({"SET", "lock:a", "tok-a", "PX", "60000"});
    observer().command(
        {"SET", "job-lock:default:b", "ADDED:2024-01-01T00:00:00Z@h", "PX", "60000"});
    inspect::ServerWatch watch(options());
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "lock:a"); }, 5s));
    const std::string node = watch.nodes().at(0).name;
    EXPECT_THROW(watch.setBudget(0.0), InvalidArgumentError);
    EXPECT_THROW(watch.setBudget(1.5), InvalidArgumentError);
    EXPECT_DOUBLE_EQ(watch.watchOf(node)->load().budget, 0.05);

    watch.setBudget(0.2);
    EXPECT_DOUBLE_EQ(watch.watchOf(node)->load().budget, 0.2);
    EXPECT_DOUBLE_EQ(watch.options().watch.budget, 0.2);
    watch.setPatterns({"lock:*", "job-lock:*"});  // the node opens a new LockWatch
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "job-lock:default:b"); }, 5s));
    EXPECT_DOUBLE_EQ(watch.watchOf(node)->load().budget, 0.2);
}

// A server that restarts and loads its data back (slowly: key-load-delay): the restart is
// reported, the view is said incomplete from the loss until the first full pass after it, and
// the lock loaded back is never reported gone.
class LoadingServerWatch : public RedisTest {
  protected:
    LocalRedisServerOptions serverOptions() const override {
        LocalRedisServerOptions o;
        o.persistence = true;
        o.configLines = {"key-load-delay 50"};  // µs per key: 20,000 keys load in ~1 s
        return o;
    }
};

TEST_F(LoadingServerWatch, ARestartThatLoadsIsReportedAndTheResyncIsSaid) {
    std::vector<std::vector<std::string>> writes;
    for (int i = 0; i < 20000; ++i) writes.push_back({"SET", "k:" + std::to_string(i), "v"});
    observer().pipeline(writes);
    observer().command({"SET", "lock:a", "tok-a"});
    observer().command({"BGREWRITEAOF"});  // loaded as an RDB preamble: key-load-delay applies
    for (int i = 0; i < 100; ++i) {
        std::string info(observer().command({"INFO", "persistence"}).text());
        if (info.find("aof_rewrite_in_progress:0") != std::string::npos &&
            info.find("aof_rewrite_scheduled:0") != std::string::npos)
            break;
        std::this_thread::sleep_for(50ms);
    }
    inspect::ServerWatchOptions o;
    o.endpoint = endpoint();
    o.watch.pollInterval = 100ms;
    o.watch.scan.patterns = {"lock:*"};
    inspect::ServerWatch watch(o);
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "lock:a"); }, 5s));
    // The engine runs on while the server restarts (start() returns once it answers).
    std::atomic<bool> restarted{false};
    auto driving = std::async(std::launch::async, [&] {
        d.runUntil(
            [&](const auto& ev) {
                if (!restarted) return false;
                for (const auto& e : ev)
                    if (e.kind == WatchEvent::Kind::Resync && e.complete) return true;
                return false;
            },
            30s);
    });
    server().stop();
    std::this_thread::sleep_for(300ms);
    server().start();
    restarted = true;
    driving.get();
    bool incomplete = false, complete = false, restartSaid = false;
    for (const auto& e : d.events()) {
        if (e.kind == WatchEvent::Kind::Resync) (e.complete ? complete : incomplete) = true;
        if (e.kind == WatchEvent::Kind::Rows && !e.rows.restartNote.empty()) restartSaid = true;
    }
    EXPECT_TRUE(incomplete);
    EXPECT_TRUE(complete);
    EXPECT_TRUE(restartSaid);
    EXPECT_FALSE(removed(d.events(), "lock:a"));  // loaded back: still held
}

}  // namespace
}  // namespace lockscope::testing
