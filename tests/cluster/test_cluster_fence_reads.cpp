// Issue 35 item 4: every read goes to its key's slot owner. An unbraced lock (lock:name)
// keeps its fencing counter (fence:name) in another slot, often on another primary. The
// watch used to send GET fence:name to the lock's node on every poll and get MOVED back
// (and show no fence); now the counter is read from the node that serves its slot, and no
// primary answers MOVED, neither to the watch's polls nor to a one-shot cluster listing.
#include <gtest/gtest.h>

#include "cluster_fixture.h"
#include "cluster_test_keys.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/cluster/cluster_scan.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "server_watch_driver.h"

namespace lockscope::testing {
namespace {

using namespace std::chrono_literals;
using inspect::WatchEvent;

// A lock:<name> on primary 0 whose fence:<name> another primary serves.
struct SplitLock {
    std::string lockKey, fenceKey;
    std::size_t fenceNode = 0;
};

SplitLock splitLock(RedisCluster& cluster) {
    for (int i = 0;; ++i) {
        const std::string name = "nightly-" + std::to_string(i);
        SplitLock s{"lock:" + name, "fence:" + name, cluster.primaryFor("fence:" + name)};
        if (cluster.primaryFor(s.lockKey) == 0 && s.fenceNode != 0) return s;
    }
}

// The lock and its counter (at `fence`) written on their slots' owners, then every
// primary's error counters zeroed so only what the inspector sends counts.
void writeSplitLock(RedisCluster& cluster, const SplitLock& s, long long fence) {
    writeLocks(cluster, {s.lockKey});
    Connection c = cluster.connect(s.fenceNode);
    c.command({"SET", s.fenceKey, std::to_string(fence)});
    for (std::size_t node = 0; node < 3; ++node)
        cluster.connect(node).command({"CONFIG", "RESETSTAT"});
}

// The MOVED errors primary `node` has answered since its last CONFIG RESETSTAT (0 when its
// INFO errorstats has no errorstat_MOVED line).
long long movedAnswers(RedisCluster& cluster, std::size_t node) {
    const std::string info(cluster.connect(node).command({"INFO", "errorstats"}).text());
    const std::string tag = "errorstat_MOVED:count=";
    const auto at = info.find(tag);
    return at == std::string::npos ? 0 : std::stoll(info.substr(at + tag.size()));
}

// The fence of the key in the last Rows event that showed it (nullopt: never shown or shown
// without one).
std::optional<std::int64_t> lastShownFence(const std::vector<WatchEvent>& events,
                                           const std::string& key) {
    std::optional<std::int64_t> fence;
    for (const auto& e : events)
        if (e.kind == WatchEvent::Kind::Rows)
            for (const auto& r : e.rows.changed)
                if (r.key == key) fence = r.fence;
    return fence;
}

TEST(ClusterFenceReads, TheWatchReadsAFenceFromItsSlotOwnerWithoutMoved) {
    RedisCluster cluster;
    const SplitLock split = splitLock(cluster);
    const std::string braced = keyOnNode(cluster, 1);  // lock:{rN}, fence:{rN} in its slot
    writeLocks(cluster, {braced});
    cluster.connect(1).command({"SET", "fence:" + braced.substr(5), "7"});
    writeSplitLock(cluster, split, 42);

    inspect::ServerWatchOptions o;
    o.endpoint = cluster.endpoint(0);
    o.watch.pollInterval = 100ms;
    o.watch.scan.patterns = {"lock:*"};
    inspect::ServerWatch watch(o);
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_TRUE(d.runUntil([&](const auto& ev) { return shown(ev, split.lockKey); }, 10s));
    d.runFor(2s);  // about twenty polls of every primary

    EXPECT_EQ(lastShownFence(d.events(), split.lockKey), 42);
    EXPECT_EQ(lastShownFence(d.events(), braced), 7);
    for (std::size_t node = 0; node < 3; ++node)
        EXPECT_EQ(movedAnswers(cluster, node), 0) << "primary " << node;

    // A new holder takes the fence up: the next polls show it.
    cluster.connect(split.fenceNode).command({"INCR", split.fenceKey});
    ASSERT_TRUE(
        d.runUntil([&](const auto& ev) { return lastShownFence(ev, split.lockKey) == 43; }, 5s));
    for (std::size_t node = 0; node < 3; ++node)
        EXPECT_EQ(movedAnswers(cluster, node), 0) << "primary " << node;
}

TEST(ClusterFenceReads, AListingReadsAFenceFromItsSlotOwnerWithoutMoved) {
    RedisCluster cluster;
    const SplitLock split = splitLock(cluster);
    writeSplitLock(cluster, split, 42);

    inspect::ClusterRouter router(cluster.endpoint(0), {});
    inspect::ClusterScanOptions options;
    options.scan.patterns = {"lock:*"};
    const auto result = inspect::scanCluster(router, options);
    std::optional<std::int64_t> fence;
    bool found = false;
    for (const auto& part : result.parts)
        for (const auto& r : part)
            if (r.key == split.lockKey) found = true, fence = r.fence;
    ASSERT_TRUE(found);
    EXPECT_EQ(fence, 42);
    for (std::size_t node = 0; node < 3; ++node)
        EXPECT_EQ(movedAnswers(cluster, node), 0) << "primary " << node;
}

}  // namespace
}  // namespace lockscope::testing
