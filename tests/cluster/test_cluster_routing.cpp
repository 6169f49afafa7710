// Actions routed by slot on a real cluster: release on keys of every node, a MOVED after a
// slot moved (topology refreshed, retried once) and an ASK during a migration (ASKING, then
// the script on the importing node).
#include <gtest/gtest.h>

#include "cluster_fixture.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/cluster_router.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/safe_actions.h"

namespace lockscope::inspect {
namespace {

using testing::RedisCluster;

// A key whose slot the fixture gave to primary `node`.
std::string keyOnNode(const RedisCluster& cluster, std::size_t node, int n = 0) {
    for (int i = 0;; ++i) {
        std::string key = "lock:{r" + std::to_string(i) + "}";
        if (const_cast<RedisCluster&>(cluster).primaryFor(key) == node && n-- == 0) return key;
    }
}

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

TEST(ClusterRouting, MovedRefreshesTheTopologyAndRetriesOnTheNewOwner) {
    RedisCluster cluster;
    std::string key = keyOnNode(cluster, 0);
    int slot = keyHashSlot(key);
    cluster.connect(0).command({"SET", key, "t1"});
    ClusterRouter router(cluster.endpoint(0), {});
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

}  // namespace
}  // namespace lockscope::inspect
