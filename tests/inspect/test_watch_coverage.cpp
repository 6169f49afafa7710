// Issue 32: a key that was there all along but outside what the watch read (an ordinary key
// before Settings → Show non-lock keys, a key under a pattern added by an edit) is not "seen
// arriving": its age is unknown, not the few seconds since it was first read. Before, the
// window showed a list under the patterns as "≈ 5.3 s" old when it had existed for minutes.
// Keys that do arrive afterwards are still seen arriving.
#include <gtest/gtest.h>

#include "lockscope/inspect/lock_age.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "redis_fixture.h"
#include "server_watch_driver.h"

namespace lockscope::testing {
namespace {

using namespace std::chrono_literals;

class WatchCoverageTest : public RedisTest {
  protected:
    inspect::ServerWatchOptions options(std::vector<std::string> patterns) {
        inspect::ServerWatchOptions o;
        o.endpoint = endpoint();
        o.watch.pollInterval = 50ms;
        o.watch.budget = 1.0;
        o.watch.rescanInterval = 100ms;  // the sweep for new keys: a new key is found at once
        o.watch.scan.patterns = std::move(patterns);
        return o;
    }
    const inspect::LockRecord* record(inspect::ServerWatch& watch, const std::string& key) {
        return watch.watchOf(watch.nodes().at(0).name)->table().find(key);
    }
    static inspect::AgeSource ageSource(const inspect::LockRecord& r) {
        return inspect::estimateAge(r, inspect::SteadyClock::now(), inspect::WallClock::now())
            .source;
    }
    // A key set now, then watched until the watch shows it: it was seen arriving.
    void expectArrivalSeen(ServerWatchDriver& d, inspect::ServerWatch& watch,
                           const std::string& key) {
        observer().command({"SET", key, "tok-new", "PX", "60000"});
        ASSERT_TRUE(d.runUntil([&](const auto& ev) { return shown(ev, key); }, 5s)) << key;
        EXPECT_TRUE(record(watch, key)->appearedWhileWatching) << key;
        EXPECT_EQ(ageSource(*record(watch, key)), inspect::AgeSource::AcquireSeen) << key;
    }
};

TEST_F(WatchCoverageTest, OrdinaryKeysLetInBySettingsWereThereUnread) {
    observer().command({"SET", "lock:{a}", "tok-a", "PX", "60000"});
    observer().command({"RPUSH", "lock:queue", "job-1", "job-2"});  // an ordinary key
    inspect::ServerWatch watch(options({"lock:*"}));
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "lock:{a}"); }, 5s));
    d.runFor(200ms);

    watch.setJudging({.includeNonLocks = true, .heldTooLong = std::chrono::minutes(30)});
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "lock:queue"); }, 5s));
    const inspect::LockRecord* queue = record(watch, "lock:queue");
    ASSERT_NE(queue, nullptr);
    EXPECT_FALSE(queue->appearedWhileWatching);
    EXPECT_EQ(ageSource(*queue), inspect::AgeSource::Unknown);
    d.runFor(200ms);  // the rescan is complete: what comes now arrives
    expectArrivalSeen(d, watch, "lock:{b}");
}

TEST_F(WatchCoverageTest, KeysUnderAnAddedPatternWereThereUnread) {
    observer().command({"SET", "lock:a", "tok-a", "PX", "60000"});
    observer().command(
        {"SET", "job-lock:default:b", "ADDED:2024-01-01T00:00:00Z@h", "PX", "60000"});
    observer().command({"SET", "mutex:c", "tok-c", "PX", "60000"});
    inspect::ServerWatch watch(options({"lock:*"}));
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "lock:a"); }, 5s));
    d.runFor(200ms);

    watch.setPatterns({"lock:*", "mutex:*"});  // the node opens a new LockWatch
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "mutex:c"); }, 5s));
    EXPECT_FALSE(record(watch, "mutex:c")->appearedWhileWatching);
    EXPECT_EQ(ageSource(*record(watch, "mutex:c")), inspect::AgeSource::Unknown);
    d.runFor(200ms);
    expectArrivalSeen(d, watch, "mutex:d");
    expectArrivalSeen(d, watch, "lock:e");  // under the old pattern too

    // A second edit: only what the table covered before it counts as arrived.
    watch.setPatterns({"lock:*", "mutex:*", "job-lock:*"});
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "job-lock:default:b"); }, 5s));
    EXPECT_FALSE(record(watch, "job-lock:default:b")->appearedWhileWatching);
    EXPECT_TRUE(record(watch, "mutex:d")->appearedWhileWatching) << "kept from before the edit";
}

}  // namespace
}  // namespace lockscope::testing
