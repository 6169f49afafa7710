// Actions routed by slot on a real cluster: release on keys of every node, a MOVED after a
// slot moved (topology refreshed, retried once) and an ASK during a migration (ASKING, then
// the script on the importing node).
#include <gtest/gtest.h>

#include <random>

#include "cluster_fixture.h"
#include "cluster_test_keys.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/safe_actions.h"
#include "lockscope/inspect/scanner.h"
#include "redis_fixture.h"

namespace lockscope::inspect {
namespace {

using testing::RedisCluster;

using testing::keyOnNode;

ActionResult releaseThrough(ClusterRouter& router, const std::string& key,
                            const std::string& token) {
    ActionResult result;
    router.onKey(
        key,
        [&](Connection& c) {
            SafeActions actions(c, nullptr);
            result = actions.release(key, Holder::ofToken(token));
        },
        [](Connection& c) { preloadActionScripts(c); });
    return result;
}

long long clusterCommandCalls(Connection& c) {
    std::string info(c.command({"INFO", "commandstats"}).text());
    long long calls = 0;
    for (std::size_t at = info.find("cmdstat_cluster"); at != std::string::npos;
         at = info.find("cmdstat_cluster", at + 1))
        calls += std::stoll(info.substr(info.find("calls=", at) + 6));
    return calls;
}

class PlainServerRouting : public testing::RedisTest {};

// A plain server: an action asks nothing about a cluster, and a scan asks once per router.
TEST_F(PlainServerRouting, ActionsSendNoClusterCommandAndTheQuestionIsAskedOnce) {
    observer().command({"SET", "lock:a", "tok", "PX", "60000"});
    ClusterRouter router(endpoint(), {});
    ActionResult r = releaseThrough(router, "lock:a", "tok");
    EXPECT_EQ(r.outcome, ActionOutcome::Done) << r.message;
    EXPECT_EQ(keyCount(), 0);
    EXPECT_EQ(clusterCommandCalls(observer()), 0);
    EXPECT_FALSE(router.isCluster());
    EXPECT_FALSE(router.isCluster());
    // Asked once per router, not per call: CLUSTER SHARDS, then SLOTS (a plain server is told
    // by the reply's code, not its text, so the older question settles it), both refused.
    EXPECT_EQ(clusterCommandCalls(observer()), 2);
}

TEST(ClusterRouting, ReleasesKeysOnEveryNodeFromAnySeed) {
    RedisCluster cluster;
    ClusterRouter router(cluster.endpoint(2), {});
    ASSERT_TRUE(router.isCluster());
    for (std::size_t node = 0; node < 3; ++node) {
        std::string key = keyOnNode(cluster, node);
        cluster.connect(node).command({"SET", key, "tok-" + key, "PX", "60000"});
        ActionResult wrong = releaseThrough(router, key, "someone-else");
        EXPECT_EQ(wrong.outcome, ActionOutcome::TokenChanged) << wrong.message;
        ActionResult r = releaseThrough(router, key, "tok-" + key);
        EXPECT_EQ(r.outcome, ActionOutcome::Done) << r.message;
        EXPECT_EQ(cluster.connect(node).command({"EXISTS", key}).integer(), 0);
    }
}

// A router that has not asked about the cluster sends the action to the seed; the MOVED of a
// key on another node teaches it the topology, and the action lands there.
TEST(ClusterRouting, ARouterThatHasNotAskedLearnsTheClusterFromTheFirstMoved) {
    RedisCluster cluster;
    ClusterRouter router(cluster.endpoint(0), {});
    for (std::size_t node : {0u, 2u, 1u}) {
        std::string key = keyOnNode(cluster, node);
        cluster.connect(node).command({"SET", key, "tok", "PX", "60000"});
        ActionResult r = releaseThrough(router, key, "tok");
        EXPECT_EQ(r.outcome, ActionOutcome::Done) << r.message;
        EXPECT_EQ(cluster.connect(node).command({"EXISTS", key}).integer(), 0);
    }
    EXPECT_TRUE(router.isCluster());
    EXPECT_TRUE(router.events().empty());  // learning the topology is no change of it
}

TEST(ClusterRouting, MovedRefreshesTheTopologyAndRetriesOnTheNewOwner) {
    RedisCluster cluster;
    std::string key = keyOnNode(cluster, 0);
    int slot = keyHashSlot(key);
    cluster.connect(0).command({"SET", key, "t1"});
    ClusterRouter router(cluster.endpoint(0), {});
    ASSERT_TRUE(router.isCluster());  // it knew the topology from before the move
    cluster.moveSlot(slot, 2);
    ASSERT_EQ(cluster.connect(2).command({"GET", key}).text(), "t1");
    ActionResult r = releaseThrough(router, key, "t1");
    EXPECT_EQ(r.outcome, ActionOutcome::Done) << r.message;
    EXPECT_EQ(cluster.connect(2).command({"EXISTS", key}).integer(), 0);
    EXPECT_EQ(router.topology().ownerOfSlot(slot)->id, cluster.node(2).id);
    ASSERT_FALSE(router.events().empty());
    EXPECT_NE(router.events().front().find("slots moved"), std::string::npos);
}

TEST(ClusterRouting, AskSendsAskingThenTheScriptToTheImportingNode) {
    RedisCluster cluster;
    std::string key = keyOnNode(cluster, 1);
    int slot = keyHashSlot(key);
    cluster.connect(1).command({"SET", key, "t2"});
    ClusterRouter router(cluster.endpoint(0), {});
    cluster.beginSlotMove(slot, 1, 0);
    cluster.migrateKeys(slot, 1, 0);
    {
        Connection importing = cluster.connect(0);
        importing.command({"ASKING"});
        ASSERT_EQ(importing.command({"GET", key}).text(), "t2");
    }
    ActionResult r = releaseThrough(router, key, "t2");
    EXPECT_EQ(r.outcome, ActionOutcome::Done) << r.message;
    Connection importing = cluster.connect(0);
    importing.command({"ASKING"});
    EXPECT_EQ(importing.command({"EXISTS", key}).integer(), 0);
    cluster.finishSlotMove(slot, 0);
}

// The guide's release race on a cluster: between the operator's look and the release, another
// client may hand the lock on. 1000 trials over keys of every node, with one slot moved to
// another node halfway (the releases after it go through MOVED): zero wrong deletions.
TEST(ClusterRouting, TheReleaseRaceMakesNoWrongDeletionOnACluster) {
    RedisCluster cluster;
    ClusterRouter mine(cluster.endpoint(0), {});
    ClusterRouter other(cluster.endpoint(1), {});
    auto run = [&](ClusterRouter& r, const std::string& key,
                   std::initializer_list<std::string_view> argv) {
        Reply out;
        r.onKey(key, [&](Connection& c) { out = c.command(argv); });
        return out;
    };
    std::mt19937 rng(42);  // test-only randomness: which trials change hands
    int wrongDeletions = 0, released = 0, refused = 0;
    const std::string moving = "lock:{t0}";
    for (int trial = 0; trial < 1000; ++trial) {
        if (trial == 500)
            cluster.moveSlot(keyHashSlot(moving), (cluster.primaryFor(moving) + 1) % 3);
        std::string key = "lock:{t" + std::to_string(trial % 12) + "}";
        std::string held = "holder-a-" + std::to_string(trial);
        run(other, key, {"SET", key, held, "PX", "10000"});
        std::vector<LockRecord> seen;
        // The operator's look goes through `other` (its topology is fresh after the first
        // MOVED), so `mine` meets the moved slot with the release itself.
        other.onKey(key, [&](Connection& c) { seen = Scanner(c).readKeys({key}); });
        ASSERT_EQ(seen.size(), 1u) << key;
        int change = static_cast<int>(rng() % 3);  // 0: unchanged, 1: new holder, 2: retaken
        std::string theirs = "holder-b-" + std::to_string(trial);
        if (change == 1) run(other, key, {"SET", key, theirs, "PX", "10000"});
        if (change == 2) {
            run(other, key, {"DEL", key});
            run(other, key, {"SET", key, theirs, "NX", "PX", "10000"});
        }
        ActionResult result = releaseThrough(mine, key, seen[0].token);
        Reply now = run(other, key, {"GET", key});
        if (change == 0) {
            released += result.outcome == ActionOutcome::Done;
            EXPECT_TRUE(now.isNil());
        } else {
            refused += result.outcome == ActionOutcome::TokenChanged;
            if (now.isNil() || now.text() != theirs) ++wrongDeletions;
        }
        run(other, key, {"DEL", key});
    }
    EXPECT_EQ(wrongDeletions, 0);
    EXPECT_EQ(released + refused, 1000);
    EXPECT_FALSE(mine.events().empty());  // the release followed a MOVED after the move
    std::printf("release race on a cluster: %d released, %d refused, %d wrong deletions\n",
                released, refused, wrongDeletions);
}

}  // namespace
}  // namespace lockscope::inspect
