// Issue 32: the window's Settings (ordinary keys shown, the held-too-long warning) reach a
// running watch engine. Before, each change reopened every connection: the rows lost their
// history (first seen, renewals) and were read again from nothing.
#include <gtest/gtest.h>

#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "redis_fixture.h"
#include "server_watch_driver.h"

namespace lockscope::testing {
namespace {

using namespace std::chrono_literals;
using inspect::RuleId;
using inspect::WatchEvent;

class ServerWatchJudging : public RedisTest {
  protected:
    inspect::ServerWatchOptions options() {
        inspect::ServerWatchOptions o;
        o.endpoint = endpoint();
        o.watch.pollInterval = 50ms;
        o.watch.budget = 1.0;  // every lock re-read every interval: the renewal is seen at once
        o.watch.scan.patterns = {"*"};
        return o;
    }
    const inspect::LockRecord* record(inspect::ServerWatch& watch, const std::string& key) {
        return watch.watchOf(watch.nodes().at(0).name)->table().find(key);
    }
};

TEST_F(ServerWatchJudging, AShorterHeldTooLongWarnsAtOnceAndKeepsTheHistory) {
    observer().command({"SET", "lock:{a}", "tok-a", "PX", "60000"});
    inspect::ServerWatch watch(options());
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "lock:{a}"); }, 5s));
    observer().command({"PEXPIRE", "lock:{a}", "120000"});  // the holder renews
    ASSERT_TRUE(d.runUntil(
        [&](const auto&) {
            const auto* r = record(watch, "lock:{a}");
            return r && r->renewals > 0;
        },
        5s));
    const auto firstSeen = record(watch, "lock:{a}")->firstSeen;
    EXPECT_EQ(record(watch, "lock:{a}")->findings & inspect::bit(RuleId::HeldTooLong), 0u);

    auto events = watch.setJudging({.includeNonLocks = false, .heldTooLong = 1ms});
    const inspect::LockRecord* now = lastRow(events, "lock:{a}");
    ASSERT_NE(now, nullptr) << "the warning must reach the view now, not at the next change";
    EXPECT_NE(now->findings & inspect::bit(RuleId::HeldTooLong), 0u);
    EXPECT_EQ(now->firstSeen, firstSeen);
    EXPECT_GT(now->renewals, 0u);
    EXPECT_EQ(watch.options().watch.doctor.heldTooLong, 1ms);

    events = watch.setJudging({.includeNonLocks = false, .heldTooLong = 30min});
    now = lastRow(events, "lock:{a}");
    ASSERT_NE(now, nullptr);
    EXPECT_EQ(now->findings & inspect::bit(RuleId::HeldTooLong), 0u);
    // A setting that changes no finding reports nothing.
    EXPECT_TRUE(watch.setJudging({.includeNonLocks = false, .heldTooLong = 30min}).empty());
}

TEST_F(ServerWatchJudging, OrdinaryKeysComeAndGoWhileTheLocksKeepTheirHistory) {
    observer().command({"SET", "lock:{a}", "tok-a", "PX", "60000"});
    observer().command({"SET", "cache:page", "<html>a cached page</html>"});
    inspect::ServerWatch watch(options());
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "lock:{a}"); }, 5s));
    d.runFor(200ms);
    EXPECT_FALSE(shown(d.events(), "cache:page"));
    const auto firstSeen = record(watch, "lock:{a}")->firstSeen;

    auto events = watch.setJudging({.includeNonLocks = true, .heldTooLong = 30min});
    EXPECT_TRUE(events.empty()) << "the ordinary keys come with the rescan, not from nothing";
    EXPECT_EQ(watch.nextStepAt(), inspect::SteadyClock::time_point{}) << "that rescan is due now";
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "cache:page"); }, 5s));
    EXPECT_EQ(record(watch, "lock:{a}")->firstSeen, firstSeen);
    EXPECT_FALSE(removed(d.events(), "lock:{a}"));

    events = watch.setJudging({.includeNonLocks = false, .heldTooLong = 30min});
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].rows.removed, std::vector<std::string>{"cache:page"});
    EXPECT_EQ(record(watch, "cache:page"), nullptr);
    d.runFor(300ms);  // and the next rounds leave it out
    EXPECT_EQ(record(watch, "cache:page"), nullptr);
    EXPECT_EQ(record(watch, "lock:{a}")->firstSeen, firstSeen);
}

}  // namespace
}  // namespace lockscope::testing
