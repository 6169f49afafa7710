// Scanning a real cluster: every primary in parallel, every lock once (one per slot), a node
// down reported with its slots, a slot migrated during the scan, replicas with READONLY, and
// cancel across the cluster.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

#include "cluster_fixture.h"
#include "cluster_test_keys.h"
#include "lockscope/inspect/cluster/cluster_scan.h"
#include "lockscope/inspect/hash_slot.h"

namespace lockscope::inspect {
namespace {

using namespace std::chrono_literals;
using testing::RedisCluster;

// Every record of the result, its parts one after the other (a copy, for the checks).
std::vector<LockRecord> allRecords(const ClusterScanResult& r) {
    std::vector<LockRecord> all;
    for (const auto& part : r.parts) all.insert(all.end(), part.begin(), part.end());
    EXPECT_EQ(all.size(), r.lockCount());
    EXPECT_EQ(r.parts.size(), r.nodes.size() + 1);  // one per node, then the slots read again
    return all;
}

std::set<std::string> keysOf(const ClusterScanResult& r) {
    std::set<std::string> keys;
    for (const auto& rec : allRecords(r)) keys.insert(rec.key);
    return keys;
}

TEST(ClusterScan, ListsTheLockOfEverySlotExactlyOnceWithItsNodeAndSlot) {
    RedisCluster cluster;
    auto keys = testing::oneKeyPerSlot();
    testing::writeLocks(cluster, keys);
    ClusterRouter router(cluster.endpoint(1), {.readOnly = true});
    std::atomic<int> progressCalls{0};
    auto result = scanCluster(router, {}, [&](const auto& nodes) {
        EXPECT_EQ(nodes.size(), 3u);
        ++progressCalls;
    });
    ASSERT_EQ(result.nodes.size(), 3u);
    for (const auto& n : result.nodes) {
        EXPECT_FALSE(n.error) << *n.error;
        EXPECT_TRUE(n.done);
    }
    EXPECT_GT(progressCalls.load(), 3);
    ASSERT_EQ(result.lockCount(), 16384u);
    EXPECT_EQ(keysOf(result).size(), 16384u);
    for (const auto& r : allRecords(result)) {
        ASSERT_EQ(r.slot, keyHashSlot(r.key));
        EXPECT_EQ(r.instanceName(), cluster.url(cluster.primaryOfSlot(r.slot)));
        EXPECT_EQ(r.token, "tok-" + r.key);
    }
}

long long getCalls(Connection& c) {
    std::string info(c.command({"INFO", "commandstats"}).text());
    auto at = info.find("cmdstat_get:calls=");
    return at == std::string::npos ? 0 : std::stoll(info.substr(at + 18));
}

// A cluster node refuses an MGET across slots: the scan reads one MGET per slot (the lock and
// its lock:{name} / fence:{name} counter together), never a GET per key; a fence in another
// slot (lock:name / fence:name) is still read, with an MGET of its slot on the node that
// serves it (test_cluster_fence_reads.cpp).
TEST(ClusterScan, ReadsValuesAndFencesWithOneMgetPerSlotNotAGetPerKey) {
    RedisCluster cluster;
    std::vector<std::string> keys;
    for (std::size_t node = 0; node < 3; ++node)
        for (int i = 0; i < 400; ++i) keys.push_back(testing::keyOnNode(cluster, node, i));
    testing::writeLocks(cluster, keys);
    for (const auto& k : keys)
        cluster.connect(cluster.primaryFor(k)).command({"SET", "fence:" + k.substr(5), "7"});
    std::string untagged;  // lock:jobN and fence:jobN in different slots of one node
    for (int i = 0; untagged.empty(); ++i) {
        std::string name = "job" + std::to_string(i);
        if (cluster.primaryFor("lock:" + name) == 0 && cluster.primaryFor("fence:" + name) == 0)
            untagged = name;
    }
    cluster.connect(0).command({"SET", "lock:" + untagged, "tok", "PX", "60000"});
    cluster.connect(0).command({"SET", "fence:" + untagged, "9"});
    for (std::size_t node = 0; node < 3; ++node)
        cluster.connect(node).command({"CONFIG", "RESETSTAT"});

    ClusterRouter router(cluster.endpoint(0), {.readOnly = true});
    auto result = scanCluster(router, {});
    ASSERT_EQ(result.lockCount(), keys.size() + 1);
    for (const auto& r : allRecords(result)) {
        ASSERT_TRUE(r.fence) << r.key;
        EXPECT_EQ(*r.fence, r.key == "lock:" + untagged ? 9 : 7) << r.key;
        if (r.key != "lock:" + untagged) {
            EXPECT_EQ(r.token, "tok-" + r.key);
        }
    }
    long long gets = 0;
    for (std::size_t node = 0; node < 3; ++node) {
        Connection c = cluster.connect(node);
        gets += getCalls(c);
    }
    EXPECT_EQ(gets, 0);
}

TEST(ClusterScan, ANodeThatIsDownIsReportedWithItsSlotsWhileTheRestIsShown) {
    RedisCluster cluster;
    std::vector<std::string> keys;
    for (std::size_t node = 0; node < 3; ++node)
        for (int i = 0; i < 20; ++i) keys.push_back(testing::keyOnNode(cluster, node, i));
    testing::writeLocks(cluster, keys);
    ClusterRouter router(cluster.endpoint(0), {.readOnly = true});
    cluster.node(2).server->stop();
    auto result = scanCluster(router, {});
    ASSERT_EQ(result.nodes.size(), 3u);
    EXPECT_FALSE(result.nodes[0].error);
    EXPECT_FALSE(result.nodes[1].error);
    ASSERT_TRUE(result.nodes[2].error);
    const std::string slots = std::to_string(cluster.node(2).firstSlot) + "-16383";
    EXPECT_NE(result.nodes[2].error->find("slots " + slots + " not shown"), std::string::npos)
        << *result.nodes[2].error;
    EXPECT_EQ(result.nodes[2].slotRanges, slots);
    EXPECT_EQ(result.lockCount(), 40u);
}

// Many keys so the scan takes a while, and 300 locks in one slot that moves while it runs.
TEST(ClusterScan, ASlotMigratedDuringTheScanLosesAndDuplicatesNoLock) {
    RedisCluster cluster;
    auto keys = testing::oneKeyPerSlot();
    for (int i = 0; i < 3; ++i) {
        auto more = testing::oneKeyPerSlot();
        for (auto& k : more) k += ":" + std::to_string(i);
        keys.insert(keys.end(), more.begin(), more.end());
    }
    std::string tag = testing::keyOnNode(cluster, 0).substr(5);  // "{rN}"
    int slot = keyHashSlot(tag);
    std::vector<std::string> moving;
    moving.reserve(300);
    for (int i = 0; i < 300; ++i) moving.push_back("lock:" + tag + ":" + std::to_string(i));
    keys.insert(keys.end(), moving.begin(), moving.end());
    testing::writeLocks(cluster, keys);
    ClusterRouter router(cluster.endpoint(1), {.readOnly = true});
    ClusterScanOptions options;
    options.scan.count = 50;  // many small rounds: the move lands in the middle
    std::atomic<bool> started{false};
    std::jthread mover([&] {
        while (!started) std::this_thread::sleep_for(1ms);
        cluster.beginSlotMove(slot, 0, 2);
        for (int i = 0; i < 6; ++i) cluster.migrateKeys(slot, 0, 2, 50);
        cluster.migrateKeys(slot, 0, 2);  // the slot's other keys too
        cluster.finishSlotMove(slot, 2);
    });
    auto result = scanCluster(router, options, [&](const auto&) { started = true; });
    mover.join();
    std::set<std::string> seen;
    for (const auto& r : allRecords(result)) EXPECT_TRUE(seen.insert(r.key).second) << r.key;
    EXPECT_EQ(seen.size(), keys.size());
    for (const auto& k : keys) EXPECT_TRUE(seen.count(k)) << k << " slot " << keyHashSlot(k);
    EXPECT_GE(result.slotsReread, 1u);
    std::printf("scan saw %zu locks, re-read %llu moved slot(s)\n", seen.size(),
                static_cast<unsigned long long>(result.slotsReread));
}

TEST(ClusterScan, AMigrationStillRunningWhenTheScanEndsIsWaitedFor) {
    RedisCluster cluster;
    std::string tag = testing::keyOnNode(cluster, 1).substr(5);
    int slot = keyHashSlot(tag);
    std::vector<std::string> keys;
    keys.reserve(100);
    for (int i = 0; i < 100; ++i) keys.push_back("lock:" + tag + ":" + std::to_string(i));
    testing::writeLocks(cluster, keys);
    cluster.beginSlotMove(slot, 1, 0);
    cluster.migrateKeys(slot, 1, 0, 40);
    ClusterRouter router(cluster.endpoint(0), {.readOnly = true});
    std::jthread finisher([&] {
        std::this_thread::sleep_for(300ms);
        cluster.migrateKeys(slot, 1, 0);
        cluster.finishSlotMove(slot, 0);
    });
    auto result = scanCluster(router, {});
    finisher.join();
    EXPECT_EQ(keysOf(result).size(), 100u);
    EXPECT_EQ(result.lockCount(), 100u);
}

TEST(ClusterScan, ReplicasAreScannedWithReadonlyAndSayHowFarTheyLag) {
    RedisCluster cluster({.replicas = true});
    auto keys = testing::oneKeyPerSlot();
    keys.resize(3000);
    testing::writeLocks(cluster, keys);
    for (std::size_t p = 0; p < 3; ++p) cluster.connect(p).command({"WAIT", "1", "5000"});
    // A replica's offset reaches the node asked by gossip, a few pings later: until then
    // CLUSTER SHARDS says 0 and the lag is not known (-1), not the primary's whole offset.
    for (int i = 0; i < 100; ++i) {
        ClusterRouter probe(cluster.endpoint(0), {.readOnly = true});
        ASSERT_TRUE(probe.isCluster());
        const auto& nodes = probe.topology().nodes;
        if (std::all_of(nodes.begin(), nodes.end(), [](const ClusterNode& n) {
                return n.isPrimary() || n.replicationOffset > 0;
            }))
            break;
        std::this_thread::sleep_for(100ms);
    }
    ClusterRouter router(cluster.endpoint(0), {.readOnly = true});
    ClusterScanOptions options;
    options.scanReplicas = true;
    auto result = scanCluster(router, options);
    ASSERT_EQ(result.nodes.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        const auto& n = result.nodes[i];
        EXPECT_FALSE(n.error) << *n.error;
        EXPECT_FALSE(n.node.isPrimary());
        EXPECT_GE(n.replicaLagBytes, 0);
        EXPECT_EQ(n.instance, cluster.url(i + 3));
    }
    EXPECT_EQ(keysOf(result).size(), keys.size());
    for (const auto& r : allRecords(result)) {
        EXPECT_EQ(r.instanceName(), cluster.url(cluster.primaryOfSlot(r.slot) + 3));
    }
}

TEST(ClusterScan, CancelStopsEveryNode) {
    RedisCluster cluster;
    auto keys = testing::oneKeyPerSlot();
    testing::writeLocks(cluster, keys);
    ClusterRouter router(cluster.endpoint(0), {.readOnly = true});
    ClusterScanOptions options;
    options.scan.count = 10;
    std::stop_source stop;
    auto result = scanCluster(
        router, options, [&](const auto&) { stop.request_stop(); }, stop.get_token());
    EXPECT_TRUE(result.cancelled);
    EXPECT_LT(result.lockCount(), keys.size());
}

}  // namespace
}  // namespace lockscope::inspect
