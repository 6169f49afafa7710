// The watch engine on a real Redis Cluster and a real Sentinel group: every primary watched
// from one node, a slot moved (its locks follow with their history, never "removed"), a
// primary killed (the engine follows the promoted replica), a replica stopped and restarted
// (the watch falls back to the primary and returns), a Sentinel failover.
#include <gtest/gtest.h>

#include "cluster_fixture.h"
#include "cluster_test_keys.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "sentinel_fixture.h"
#include "server_watch_driver.h"

namespace lockscope::testing {
namespace {

using namespace std::chrono_literals;
using inspect::WatchEvent;
using inspect::WatchNoteId;

inspect::ServerWatchOptions clusterOptions(RedisCluster& cluster) {
    inspect::ServerWatchOptions o;
    o.endpoint = cluster.endpoint(0);
    o.watch.pollInterval = 100ms;
    o.watch.scan.patterns = {"lock:*"};
    return o;
}

const WatchEvent* failover(const std::vector<WatchEvent>& events) {
    for (const auto& e : events)
        if (e.kind == WatchEvent::Kind::Failover) return &e;
    return nullptr;
}

TEST(ServerWatchCluster, WatchesEveryPrimaryFromOneNode) {
    RedisCluster cluster;
    std::vector<std::string> keys;
    for (std::size_t node = 0; node < 3; ++node) keys.push_back(keyOnNode(cluster, node));
    writeLocks(cluster, keys);
    inspect::ServerWatch watch(clusterOptions(cluster));
    ServerWatchDriver d(watch);
    d.open();
    EXPECT_TRUE(watch.isCluster());
    ASSERT_EQ(watch.nodes().size(), 3u);
    ASSERT_TRUE(d.runUntil(
        [&](const auto& ev) {
            for (std::size_t node = 0; node < 3; ++node)
                if (!shown(ev, keys[node], cluster.url(node))) return false;
            return true;
        },
        10s));
    EXPECT_EQ(watch.nodes()[0].shard, "0-5460");
}

// A slot moved by an operator: its locks are shown on the new owner in the same round, moved
// away from the old one, never removed, and the topology change is an event.
TEST(ServerWatchCluster, ASlotMovedHandsItsLocksToTheNewOwner) {
    RedisCluster cluster;
    const std::string key = keyOnNode(cluster, 0);
    writeLocks(cluster, {key});
    inspect::ServerWatch watch(clusterOptions(cluster));
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_TRUE(d.runUntil([&](const auto& ev) { return shown(ev, key, cluster.url(0)); }, 5s));
    cluster.moveSlot(inspect::keyHashSlot(key), 2);
    ASSERT_TRUE(d.runUntil([&](const auto& ev) { return shown(ev, key, cluster.url(2)); }, 10s));
    bool movedAway = false;
    for (const auto& e : d.events())
        if (e.kind == WatchEvent::Kind::Rows && e.node == cluster.url(0))
            for (const auto& k : e.rows.movedAway) movedAway = movedAway || k == key;
    EXPECT_TRUE(movedAway);
    EXPECT_FALSE(removed(d.events(), key));
    EXPECT_GE(countKind(d.events(), WatchEvent::Kind::Topology), 1u);
    EXPECT_TRUE(noted(d.events(), WatchNoteId::SlotMoved));
}

// Scale-out: a fourth primary joins with no slots (not watched), then a slot moves to it. The
// engine watches the new primary, and the slot's locks move there with the hand-off: never
// removed. Before, the lock stayed on the old owner's watch, answering MOVED, for good.
TEST(ServerWatchCluster, ASlotMovedToANewPrimaryIsWatchedThere) {
    RedisCluster cluster({.primaries = 4, .emptyPrimaries = 1});
    const std::string key = keyOnNode(cluster, 1);
    writeLocks(cluster, {key});
    inspect::ServerWatch watch(clusterOptions(cluster));
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_EQ(watch.nodes().size(), 3u);
    ASSERT_TRUE(d.runUntil([&](const auto& ev) { return shown(ev, key, cluster.url(1)); }, 5s));
    cluster.moveSlot(inspect::keyHashSlot(key), 3);
    ASSERT_TRUE(d.runUntil([&](const auto& ev) { return shown(ev, key, cluster.url(3)); }, 10s));
    EXPECT_EQ(watch.nodes().size(), 4u);
    EXPECT_FALSE(removed(d.events(), key));
}

// A primary killed: the engine follows the replica the cluster promotes (a failover event),
// and reads what the new primary holds under the same node.
TEST(ServerWatchCluster, AKilledPrimaryIsFollowedToItsPromotedReplica) {
    RedisCluster cluster({.replicas = true});
    const std::string key = keyOnNode(cluster, 1);
    writeLocks(cluster, {key});
    inspect::ServerWatch watch(clusterOptions(cluster));
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_TRUE(d.runUntil([&](const auto& ev) { return shown(ev, key); }, 5s));
    cluster.node(1).server->stop();  // its replica is node 4
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return failover(ev) != nullptr; }, 20s));
    const WatchEvent* f = failover(d.events());
    EXPECT_EQ(f->from, cluster.url(1));
    EXPECT_EQ(f->to, cluster.url(4));
    EXPECT_EQ(f->node, cluster.url(1));
    EXPECT_FALSE(f->sentinel);
    const std::string after = keyOnNode(cluster, 1, 7);
    cluster.connect(4).command({"SET", after, "tok-after", "PX", "60000"});
    EXPECT_TRUE(d.runUntil([&](const auto& ev) { return shown(ev, after, cluster.url(1)); }, 10s));
}

// Scan replicas: each primary's replica is read; a stopped replica sends the watch to its
// primary (said in a note), and when the replica answers again the watch returns to it.
TEST(ServerWatchCluster, AStoppedReplicaFallsBackToThePrimaryAndReturns) {
    RedisCluster cluster({.replicas = true});
    const std::string key = keyOnNode(cluster, 0);
    writeLocks(cluster, {key});
    auto o = clusterOptions(cluster);
    o.scanReplicas = true;
    o.replicaRetry = 1s;
    inspect::ServerWatch watch(o);
    ServerWatchDriver d(watch);
    d.open();
    std::string notes;
    for (const auto& e : d.events()) notes += inspect::describe(e.note) + "\n";
    ASSERT_TRUE(noted(d.events(), WatchNoteId::ReplicaChosen)) << notes;
    for (const auto& n : watch.nodes()) EXPECT_TRUE(n.readsReplica) << n.name;
    ASSERT_TRUE(d.runUntil([&](const auto& ev) { return shown(ev, key); }, 10s));
    cluster.node(3).server->stop();  // node 0's replica
    ASSERT_TRUE(
        d.runUntil([](const auto& ev) { return noted(ev, WatchNoteId::NoReplicaAnswers); }, 10s));
    EXPECT_FALSE(watch.nodes()[0].readsReplica);
    EXPECT_EQ(watch.nodes()[0].endpoint, cluster.url(0));
    cluster.node(3).server->start();
    ASSERT_TRUE(
        d.runUntil([](const auto& ev) { return noted(ev, WatchNoteId::BackToReplica); }, 20s));
    EXPECT_TRUE(watch.nodes()[0].readsReplica);
    d.runFor(1s);
    EXPECT_FALSE(removed(d.events(), key));  // still held: never reported gone
}

// Issue 35 item 5: a cluster with a primary down (no replica to promote) says which node does
// not answer and which slots have no primary, once, and when it answers again.
TEST(ServerWatchCluster, ANodeDownIsNamedWithTheSlotsLeftWithoutAPrimary) {
    RedisCluster cluster;
    inspect::ServerWatch watch(clusterOptions(cluster));
    ServerWatchDriver d(watch);
    d.open();
    d.runFor(500ms);
    cluster.node(1).server->stop();
    ASSERT_TRUE(
        d.runUntil([](const auto& ev) { return noted(ev, WatchNoteId::ClusterDown); }, 10s));
    std::size_t downNotes = 0;
    for (const auto& e : d.events()) {
        if (e.kind != WatchEvent::Kind::Note || e.note.id != WatchNoteId::ClusterDown) continue;
        ++downNotes;
        ASSERT_EQ(e.note.args.size(), 2u);
        EXPECT_EQ(e.note.args[0], cluster.url(1));
        EXPECT_EQ(e.note.args[1], "5461-10921");
    }
    d.runFor(1500ms);
    cluster.node(1).server->start();
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return noted(ev, WatchNoteId::ClusterUp); }, 20s));
    downNotes = 0;
    for (const auto& e : d.events())
        downNotes += e.kind == WatchEvent::Kind::Note && e.note.id == WatchNoteId::ClusterDown;
    EXPECT_EQ(downNotes, 1u);  // said once, not at every failed retry
}

// Node 0's own cluster_state ("ok", "fail"), as CLUSTER INFO gives it.
std::string clusterStateOfNode0(RedisCluster& cluster) {
    const std::string info(cluster.connect(0).command({"CLUSTER", "INFO"}).text());
    const auto at = info.find("cluster_state:");
    if (at == std::string::npos) return {};
    const auto from = at + std::string_view("cluster_state:").size();
    return info.substr(from, info.find_first_of("\r\n", from) - from);
}

// With full coverage required (Redis's default), the other primaries answer CLUSTERDOWN while
// one is down: a failed read retried, not a reason to stop watching (the window's watch
// stopped for good), and the note names only the node that is down, not the ones answering
// CLUSTERDOWN. When it is back, the others are read again.
TEST(ServerWatchCluster, ClusterDownRepliesAreRetriedAndOnlyTheDownNodeIsNamed) {
    RedisCluster cluster;
    for (std::size_t n = 0; n < 3; ++n)
        cluster.connect(n).command({"CONFIG", "SET", "cluster-require-full-coverage", "yes"});
    const std::string key = keyOnNode(cluster, 0);
    writeLocks(cluster, {key});
    inspect::ServerWatch watch(clusterOptions(cluster));
    ServerWatchDriver d(watch);
    d.open();
    ASSERT_TRUE(d.runUntil([&](const auto& ev) { return shown(ev, key); }, 5s));
    cluster.node(1).server->stop();
    const auto saidOnlyNode1 = [&](const std::vector<WatchEvent>& ev) {
        const WatchEvent* last = nullptr;
        for (const auto& e : ev)
            if (e.kind == WatchEvent::Kind::Note && e.note.id == WatchNoteId::ClusterDown)
                last = &e;
        return last && last->note.args.at(0) == cluster.url(1) &&
               last->note.args.at(1) == "5461-10921";
    };
    ASSERT_TRUE(d.runUntil(saidOnlyNode1, 15s));
    // The others see the cluster fail after the node timeout, and answer CLUSTERDOWN.
    ASSERT_TRUE(
        d.runUntil([&](const auto&) { return clusterStateOfNode0(cluster) == "fail"; }, 10s));
    d.runFor(1500ms);  // rounds that read CLUSTERDOWN
    EXPECT_TRUE(saidOnlyNode1(d.events()));
    cluster.node(1).server->start();
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return noted(ev, WatchNoteId::ClusterUp); }, 20s));
    // The watch may hear the cluster up from one node before node 0 takes it back: the write
    // below waits for node 0's own view (it answered CLUSTERDOWN to the write now and then).
    ASSERT_TRUE(d.runUntil([&](const auto&) { return clusterStateOfNode0(cluster) == "ok"; }, 10s));
    writeLocks(cluster, {keyOnNode(cluster, 0, 1)});
    EXPECT_TRUE(
        d.runUntil([&](const auto& ev) { return shown(ev, keyOnNode(cluster, 0, 1)); }, 10s));
}

TEST(ServerWatchSentinel, FollowsASentinelFailover) {
    SentinelGroup group;
    {
        Connection c = Connection::open(group.server(0).endpoint());
        c.command({"SET", "lock:{job}", "tok-1", "PX", "120000"});
        c.command({"WAIT", "1", "2000"});
    }
    inspect::ServerWatchOptions o;
    o.sentinel = group.target();
    o.watch.pollInterval = 100ms;
    o.watch.scan.patterns = {"lock:*"};
    inspect::ServerWatch watch(o);
    ServerWatchDriver d(watch);
    d.open();
    EXPECT_TRUE(noted(d.events(), WatchNoteId::SentinelPrimary));
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "lock:{job}"); }, 5s));
    group.failover();
    ASSERT_TRUE(d.runUntil([](const auto& ev) { return failover(ev) != nullptr; }, 20s));
    const WatchEvent* f = failover(d.events());
    EXPECT_TRUE(f->sentinel);
    EXPECT_EQ(f->shard, "mymaster");
    EXPECT_EQ(f->to, group.server(1).endpoint().display());
    Connection c = Connection::open(group.server(1).endpoint());
    c.command({"SET", "lock:{after}", "tok-2", "PX", "120000"});
    EXPECT_TRUE(d.runUntil([](const auto& ev) { return shown(ev, "lock:{after}"); }, 10s));
}

}  // namespace
}  // namespace lockscope::testing
