// Following a cluster's topology the way the GUI's ConnectionWorker does (followTopology() at
// each step): a quiet cluster is not asked CLUSTER SHARDS every second, while a MOVED and a
// lost primary still make the router learn the new owner at once. On real clusters, and the
// refresh policy's decisions on a clock of its own.
#include <gtest/gtest.h>

#include <string>
#include <thread>

#include "cluster_fixture.h"
#include "cluster_test_keys.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/cluster/topology_refresh_policy.h"
#include "lockscope/inspect/hash_slot.h"

namespace lockscope::inspect {
namespace {

using namespace std::chrono_literals;
using Clock = TopologyRefreshPolicy::Clock;
using testing::keyOnNode;
using testing::RedisCluster;

// CLUSTER commands (SHARDS, SLOTS, NODES, MYID...) the primaries have run, from their INFO.
long long clusterCallsOnPrimaries(RedisCluster& cluster) {
    long long calls = 0;
    for (std::size_t node = 0; node < 3; ++node) {
        std::string info(cluster.connect(node).command({"INFO", "commandstats"}).text());
        for (std::size_t at = info.find("cmdstat_cluster"); at != std::string::npos;
             at = info.find("cmdstat_cluster", at + 1))
            calls += std::stoll(info.substr(info.find("calls=", at) + 6));
    }
    return calls;
}

TEST(TopologyRefreshPolicy, AsksForAReasonOrEveryThirtySeconds) {
    TopologyRefreshPolicy p;
    const Clock::time_point t0 = Clock::time_point{} + 1h;
    EXPECT_TRUE(p.dueForRefresh(t0));  // never asked
    p.noteAsked(t0);
    EXPECT_FALSE(p.dueForRefresh(t0 + 1s));
    EXPECT_FALSE(p.dueForRefresh(t0 + 29s));
    EXPECT_TRUE(p.dueForRefresh(t0 + 30s));  // the safety net

    // A redirect: asked at once, then quiet again.
    p.noteAsked(t0 + 30s);
    p.noteRedirect();
    EXPECT_TRUE(p.dueForRefresh(t0 + 30s));
    p.noteAsked(t0 + 31s);
    EXPECT_FALSE(p.dueForRefresh(t0 + 33s));

    // A lost node: asked at once and every second for a minute, for the failover to come.
    const Clock::time_point lost = t0 + 100s;
    p.noteNodeLost(lost);
    EXPECT_TRUE(p.dueForRefresh(lost));
    p.noteAsked(lost);
    EXPECT_FALSE(p.dueForRefresh(lost + 500ms));
    EXPECT_TRUE(p.dueForRefresh(lost + 1s));
    p.noteAsked(lost + 58s);
    EXPECT_TRUE(p.dueForRefresh(lost + 59s));
    p.noteAsked(lost + 60s);
    EXPECT_FALSE(p.dueForRefresh(lost + 61s));  // settled: back to the safety net
    EXPECT_TRUE(p.dueForRefresh(lost + 90s));

    // Nobody answered: asked again a second later, not at every step.
    const Clock::time_point failed = t0 + 200s;
    p.noteAskFailed(failed);
    EXPECT_FALSE(p.dueForRefresh(failed + 100ms));
    EXPECT_TRUE(p.dueForRefresh(failed + 1s));
}

// The old worker asked every second: six seconds of watching cost each watched cluster six
// CLUSTER SHARDS (and more with every window open on it).
TEST(ClusterTopologyFollow, AQuietClusterIsNotAskedEverySecond) {
    RedisCluster cluster;
    ClusterRouter router(cluster.endpoint(0), {});
    ASSERT_TRUE(router.isCluster());
    const long long before = clusterCallsOnPrimaries(cluster);
    int asked = 0;
    for (auto until = Clock::now() + 6s; Clock::now() < until;) {
        asked += router.followTopology(Clock::now()) ? 1 : 0;
        std::this_thread::sleep_for(100ms);  // a worker's step, at its fastest
    }
    const long long grown = clusterCallsOnPrimaries(cluster) - before;
    EXPECT_LE(grown, 1) << "CLUSTER commands sent while watching a quiet cluster for 6 s";
    EXPECT_LE(asked, 1);
}

// A slot moved: nothing is asked until the watcher meets the MOVED, then the very next step
// asks and the key's reads go to its new owner.
TEST(ClusterTopologyFollow, AMovedSlotIsLearnedAtTheStepAfterTheRedirect) {
    RedisCluster cluster;
    const std::string key = keyOnNode(cluster, 0);
    const int slot = keyHashSlot(key);
    cluster.connect(0).command({"SET", key, "t1"});
    ClusterRouter router(cluster.endpoint(0), {});
    ASSERT_TRUE(router.isCluster());
    cluster.moveSlot(slot, 2);
    EXPECT_FALSE(router.followTopology(Clock::now()));  // no reason yet
    try {
        router.connectionForKey(key).command({"GET", key});
        ADD_FAILURE() << "the old owner answered for a moved slot";
    } catch (const ReplyError& e) {
        EXPECT_EQ(e.code(), ServerErrorCode::Moved) << e.what();
        router.noteError(e, Clock::now());
    }
    EXPECT_TRUE(router.followTopology(Clock::now()));
    ASSERT_NE(router.topology().ownerOfSlot(slot), nullptr);
    EXPECT_EQ(router.topology().ownerOfSlot(slot)->id, cluster.node(2).id);
    EXPECT_EQ(router.connectionForKey(key).command({"GET", key}).text(), "t1");
    EXPECT_FALSE(router.followTopology(Clock::now() + 2s));  // a redirect leaves it quiet
}

// A primary dies: the watcher's next read finds its connection lost, and the router follows
// the cluster closely until the replica's promotion shows, well before the 30 s safety net.
TEST(ClusterTopologyFollow, ALostPrimaryIsFollowedToItsPromotedReplica) {
    RedisCluster cluster({.replicas = true});
    const std::string key = keyOnNode(cluster, 1);
    const int slot = keyHashSlot(key);
    {
        Connection primary = cluster.connect(1);
        primary.command({"SET", key, "t2"});
        primary.command({"WAIT", "1", "2000"});
    }
    ClusterRouter router(cluster.endpoint(0), {});
    ASSERT_TRUE(router.isCluster());
    ASSERT_EQ(router.connectionForKey(key).command({"GET", key}).text(), "t2");
    EXPECT_FALSE(router.followTopology(Clock::now()));

    cluster.node(1).server->stop();
    EXPECT_THROW(router.onKey(key, [&](Connection& c) { c.command({"GET", key}); }), IoError);
    const auto lost = Clock::now();
    auto ownerId = [&] {
        const ClusterNode* owner = router.topology().ownerOfSlot(slot);
        return owner ? owner->id : std::string();
    };
    while (ownerId() != cluster.node(4).id && Clock::now() - lost < 20s) {
        try {
            router.followTopology(Clock::now());
        } catch (const Error&) {
            // No node answered this time; asked again a second later.
        }
        std::this_thread::sleep_for(100ms);
    }
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - lost);
    EXPECT_EQ(ownerId(), cluster.node(4).id) << "after " << took.count() << " ms";
    EXPECT_LT(took, 20s);
    bool failoverEvent = false;
    for (const auto& e : router.events()) failoverEvent |= e.find("failover") != std::string::npos;
    EXPECT_TRUE(failoverEvent);
    EXPECT_EQ(router.connectionForKey(key).command({"GET", key}).text(), "t2");
    std::printf("promoted replica learned %lld ms after the primary was lost\n",
                static_cast<long long>(took.count()));
}

}  // namespace
}  // namespace lockscope::inspect
