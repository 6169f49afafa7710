// A watch of a whole cluster (one LockWatch per primary, a hand-off after each round, as
// `lockscope-cli watch` runs it) while an operator moves a slot that holds locks, on a real
// 3-primary cluster: the locks are on their new node after the next round, none lost or
// doubled, the topology change is in the router's events; and while the slot migrates, a
// lock already sent to the importing node is read there with ASKING instead of dropping out.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "cluster_fixture.h"
#include "cluster_test_keys.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/cluster/cluster_watch_hand_off.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/lock_watch.h"

namespace lockscope::inspect {
namespace {

using namespace std::chrono_literals;
using testing::keyOnNode;
using testing::RedisCluster;

// The watch of every primary, stepped together like the CLI's watch loop.
class ClusterWatch {
  public:
    explicit ClusterWatch(RedisCluster& cluster) : router_(cluster.endpoint(0), {}) {
        EXPECT_TRUE(router_.isCluster());
        WatchOptions options;
        options.budget = 1.0;  // every lock every interval: the test waits for no rotation
        options.followKeyspaceEvents = false;
        options.handOffRedirects = true;
        for (std::size_t i = 0; i < 3; ++i) {
            connections_.push_back(std::make_unique<Connection>(cluster.connect(i)));
            watches_.push_back(std::make_unique<LockWatch>(*connections_.back(), options));
            watched_.push_back({watches_.back().get(), cluster.endpoint(i)});
        }
    }
    // One interval: each primary's step, then the hand-off of what answered MOVED or ASK.
    std::vector<WatchUpdate> round() {
        std::vector<WatchUpdate> updates;
        for (auto& w : watches_) updates.push_back(w->step());
        handOffs_ = handOffRedirectedKeys(router_, watched_, updates);
        return updates;
    }
    // Which primaries show the key (an index per time it is shown).
    std::vector<std::size_t> nodesShowing(const std::string& key) const {
        std::vector<std::size_t> nodes;
        for (std::size_t i = 0; i < watches_.size(); ++i)
            if (watches_[i]->table().find(key)) nodes.push_back(i);
        return nodes;
    }
    const LockRecord* shown(std::size_t node, const std::string& key) const {
        return watches_[node]->table().find(key);
    }
    bool eventSays(const std::string& words) const {
        for (const auto& e : router_.events())
            if (e.find(words) != std::string::npos) return true;
        return false;
    }
    const std::vector<SlotHandOff>& handOffs() const { return handOffs_; }

  private:
    ClusterRouter router_;
    std::vector<std::unique_ptr<Connection>> connections_;
    std::vector<std::unique_ptr<LockWatch>> watches_;
    std::vector<WatchedPrimary> watched_;
    std::vector<SlotHandOff> handOffs_;
};

// Three locks in one slot of primary 0 ("lock:{r..}:a", ":b", ":c"), and one in another
// slot of the same primary that stays.
struct SlotLocks {
    int slot = 0;
    std::vector<std::string> keys;
    std::string stays;
};

SlotLocks writeSlotLocks(RedisCluster& cluster) {
    SlotLocks s;
    const std::string base = keyOnNode(cluster, 0);
    s.slot = keyHashSlot(base);
    for (const char* suffix : {":a", ":b", ":c"}) s.keys.push_back(base + suffix);
    s.stays = keyOnNode(cluster, 0, 1);
    EXPECT_NE(keyHashSlot(s.stays), s.slot);
    std::vector<std::string> all = s.keys;
    all.push_back(s.stays);
    testing::writeLocks(cluster, all);
    return s;
}

TEST(ClusterWatchHandOff, ASlotMovedDuringAWatchShowsItsLocksOnTheNewNodeInOneRound) {
    RedisCluster cluster;
    const SlotLocks locks = writeSlotLocks(cluster);
    ClusterWatch watch(cluster);
    watch.round();  // the first scan of each primary
    watch.round();
    for (const auto& key : locks.keys)
        ASSERT_EQ(watch.nodesShowing(key), std::vector<std::size_t>{0}) << key;

    cluster.moveSlot(locks.slot, 2);  // SETSLOT IMPORTING/MIGRATING, MIGRATE, SETSLOT NODE
    watch.round();                    // the very next interval

    for (const auto& key : locks.keys) {
        EXPECT_EQ(watch.nodesShowing(key), std::vector<std::size_t>{2})
            << key << " is not shown once, on the node it moved to";
        if (const LockRecord* r = watch.shown(2, key)) {
            EXPECT_EQ(r->token, "tok-" + key);
            EXPECT_EQ(r->instanceName(), cluster.endpoint(2).display());
        }
    }
    EXPECT_EQ(watch.nodesShowing(locks.stays), std::vector<std::size_t>{0});
    EXPECT_TRUE(watch.eventSays("slots moved")) << "the slot move is not logged as an event";
    ASSERT_EQ(watch.handOffs().size(), 1u);
    EXPECT_EQ(watch.handOffs()[0].slot, locks.slot);
    EXPECT_EQ(watch.handOffs()[0].to, cluster.endpoint(2).display());

    watch.round();  // and it stays that way: the new owner keeps reading them
    for (const auto& key : locks.keys)
        EXPECT_EQ(watch.nodesShowing(key), std::vector<std::size_t>{2}) << key;
}

TEST(ClusterWatchHandOff, AKeyOfAMigratingSlotIsReadOnTheImportingNodeWithAsking) {
    RedisCluster cluster;
    const SlotLocks locks = writeSlotLocks(cluster);
    ClusterWatch watch(cluster);
    watch.round();
    watch.round();

    cluster.beginSlotMove(locks.slot, 0, 2);
    cluster.migrateKeys(locks.slot, 0, 2, 1);  // one key is on node 2, the slot still node 0's
    Reply there =
        cluster.connect(2).command({"CLUSTER", "GETKEYSINSLOT", std::to_string(locks.slot), "10"});
    ASSERT_EQ(there.size(), 1u);
    const std::string sent(there[0].text());
    {  // a new holder takes that lock where it now is: only a read with ASKING sees it
        Connection importing = cluster.connect(2);
        importing.command({"ASKING"});
        importing.command({"SET", sent, "tok-new-holder", "PX", "600000"});
    }
    watch.round();

    for (const auto& key : locks.keys)
        EXPECT_EQ(watch.nodesShowing(key), std::vector<std::size_t>{0})
            << key << " dropped out of view (or was doubled) while its slot migrated";
    const LockRecord* r = watch.shown(0, sent);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->token, "tok-new-holder") << "the migrated key was not read on the importing node";

    cluster.migrateKeys(locks.slot, 0, 2);
    cluster.finishSlotMove(locks.slot, 2);
    watch.round();
    for (const auto& key : locks.keys)
        EXPECT_EQ(watch.nodesShowing(key), std::vector<std::size_t>{2}) << key;
    EXPECT_TRUE(watch.eventSays("slots moved"));
}

}  // namespace
}  // namespace lockscope::inspect
