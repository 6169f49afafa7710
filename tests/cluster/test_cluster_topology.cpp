// Topology discovery on a real cluster (3 primaries, with replicas where asked), the address
// map for nodes announced at addresses the client cannot reach, and the parsers' bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <thread>

#include "cluster_fixture.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_addressing.h"
#include "lockscope/inspect/cluster/cluster_topology.h"
#include "redis_fixture.h"
#include "tls_fixture.h"

namespace lockscope::inspect {
namespace {

using testing::RedisCluster;

TEST(ClusterTopology, EveryNodeReportsTheThreePrimariesAndTheirSlots) {
    auto started = std::chrono::steady_clock::now();
    RedisCluster cluster;
    auto took = std::chrono::steady_clock::now() - started;
    std::printf("cluster of 3 started in %lld ms\n",
                static_cast<long long>(
                    std::chrono::duration_cast<std::chrono::milliseconds>(took).count()));
    for (std::size_t i = 0; i < 3; ++i) {
        Connection c = cluster.connect(i);
        auto t = discoverTopology(c);
        // Right after cluster_state:ok a node may not have heard every slot by gossip yet.
        for (int wait = 0;
             wait < 50 && t && t->primaries().size() == 3 &&
             std::ranges::any_of(t->primaries(),
                                 [](const auto* n) { return n->servedSlots.empty(); });
             ++wait) {
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
            t = discoverTopology(c);
        }
        ASSERT_TRUE(t);
        EXPECT_EQ(t->source, "CLUSTER SHARDS");
        ASSERT_EQ(t->primaries().size(), 3u);
        for (std::size_t p = 0; p < 3; ++p) {
            const ClusterNode* n = t->byId(cluster.node(p).id);
            ASSERT_NE(n, nullptr);
            EXPECT_EQ(n->port, cluster.node(p).server->port());
            EXPECT_EQ(n->host, "127.0.0.1");
            ASSERT_EQ(n->servedSlots.size(), 1u);
            EXPECT_EQ(n->servedSlots[0].first, cluster.node(p).firstSlot);
            EXPECT_EQ(n->servedSlots[0].last, cluster.node(p).lastSlot);
            EXPECT_EQ(t->ownerOfSlot(cluster.node(p).firstSlot), n);
        }
    }
    Connection c = cluster.connect(1);
    EXPECT_EQ(formatSlotRanges(discoverTopology(c)->byId(cluster.node(0).id)->servedSlots),
              "0-5460");
}

TEST(ClusterTopology, ReplicasAreListedWithTheirPrimaryAndOffset) {
    RedisCluster cluster({.replicas = true});
    Connection c = cluster.connect(4);
    auto t = discoverTopology(c);
    ASSERT_TRUE(t);
    EXPECT_EQ(t->primaries().size(), 3u);
    for (std::size_t p = 0; p < 3; ++p) {
        auto replicas = t->replicasOf(*t->byId(cluster.node(p).id));
        ASSERT_EQ(replicas.size(), 1u);
        EXPECT_EQ(replicas[0]->id, cluster.node(p + 3).id);
        EXPECT_GE(replicas[0]->replicationOffset, 0);
        EXPECT_TRUE(replicas[0]->servedSlots.empty());
    }
}

class PlainServer : public testing::RedisTest {};

TEST_F(PlainServer, IsNoClusterAndKeepsWorking) {
    Connection c = connect();
    std::vector<std::string> notes;
    EXPECT_FALSE(discoverTopology(c, &notes));
    EXPECT_TRUE(notes.empty());
    EXPECT_EQ(c.command({"PING"}).text(), "PONG");
}

TEST(ClusterTopology, TlsClusterReportsItsTlsPorts) {
    RedisCluster cluster({.tls = true});
    Connection c = cluster.connect(0);
    ASSERT_TRUE(c.tlsSession());
    auto t = discoverTopology(c);
    ASSERT_TRUE(t);
    for (std::size_t p = 0; p < 3; ++p)
        EXPECT_EQ(t->byId(cluster.node(p).id)->port, cluster.node(p).server->port());
}

TEST(ClusterRedirection, ParsesMovedAndAskWithOrWithoutContext) {
    auto m = parseRedirection("EVALSHA on redis://127.0.0.1:7000: MOVED 3999 127.0.0.1:6381");
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->ask);
    EXPECT_EQ(m->slot, 3999);
    EXPECT_EQ(m->host, "127.0.0.1");
    EXPECT_EQ(m->port, 6381);
    auto a = parseRedirection("ASK 0 node-a.example:7001");
    ASSERT_TRUE(a);
    EXPECT_TRUE(a->ask);
    EXPECT_EQ(a->host, "node-a.example");
    auto v6 = parseRedirection("MOVED 16383 ::1:7000");
    ASSERT_TRUE(v6);
    EXPECT_EQ(v6->host, "::1");
    for (const char* bad : {"MOVED", "MOVED 3999", "MOVED x 1.2.3.4:5", "MOVED 16384 h:1",
                            "MOVED -1 h:1", "MOVED 1 h:0", "MOVED 1 h:99999", "MOVED 1 :7000",
                            "MOVED 1 host", "ERR something else", ""})
        EXPECT_FALSE(parseRedirection(bad)) << bad;
}

TEST(ClusterAddressMap, MapsAnnouncedAddressesAndRejectsBadEntries) {
    ClusterAddressing a;
    addAddressMapping(a, "10.0.0.5:6379=127.0.0.1:7001");
    addAddressMapping(a, "[fd00::1]:6379=[::1]:7002");
    Endpoint seed = parseEndpoint("redis://alice:pw@127.0.0.1:7000/0");
    Endpoint e = nodeEndpoint(seed, "10.0.0.5", 6379, a);
    EXPECT_EQ(e.host, "127.0.0.1");
    EXPECT_EQ(e.port, 7001);
    EXPECT_EQ(e.user, "alice");
    EXPECT_EQ(e.password, "pw");
    EXPECT_EQ(nodeEndpoint(seed, "fd00::1", 6379, a).host, "::1");
    Endpoint unmapped = nodeEndpoint(seed, "10.0.0.6", 6380, a);
    EXPECT_EQ(unmapped.host, "10.0.0.6");
    a.throughSeedHost = true;
    EXPECT_EQ(nodeEndpoint(seed, "10.0.0.6", 6380, a).host, "127.0.0.1");
    EXPECT_EQ(nodeEndpoint(seed, "10.0.0.6", 6380, a).port, 6380);

    // TLS: the certificate names the node, so its announced name is checked through a tunnel.
    Endpoint tlsSeed = parseEndpoint("rediss://127.0.0.1:7000");
    EXPECT_EQ(nodeEndpoint(tlsSeed, "10.0.0.5", 6379, a).tls.serverName, "10.0.0.5");
    EXPECT_EQ(nodeEndpoint(tlsSeed, "127.0.0.1", 7003, a).tls.serverName, "");

    for (const char* bad :
         {"", "=", "a:1", "a:1=", "=b:2", "a=b:2", "a:1=b", "a:0=b:2", "a:1=b:65536", "a:1=b:2=c:3",
          "[::1:1=b:2", "a b:1=c:2", "a:1=b:2x", "a:-1=b:2"})
        EXPECT_THROW(addAddressMapping(a, bad), InvalidArgumentError) << bad;
    std::string huge(100000, 'h');
    EXPECT_THROW(addAddressMapping(a, huge + ":1=b:2"), InvalidArgumentError);
}

TEST(ClusterAddressMap, NodesAnnouncedAtUnreachableNamesAreReachedThroughTheMap) {
    RedisCluster cluster({.unreachableHostPrefix = "lockscope-node"});
    Connection c = cluster.connect(0);
    auto t = discoverTopology(c);
    ASSERT_TRUE(t);
    const ClusterNode* second = t->byId(cluster.node(1).id);
    ASSERT_NE(second, nullptr);
    EXPECT_EQ(second->host, "lockscope-node1.invalid");
    ClusterAddressing none;
    EXPECT_THROW(Connection::open(nodeEndpoint(cluster.endpoint(0), *second, none),
                                  {.connectTimeout = std::chrono::milliseconds(500)}),
                 ConnectionRefusedError);
    ClusterAddressing map;
    addAddressMapping(
        map, second->address() + "=127.0.0.1:" + std::to_string(cluster.node(1).server->port()));
    Connection mapped = Connection::open(nodeEndpoint(cluster.endpoint(0), *second, map));
    EXPECT_EQ(mapped.command({"CLUSTER", "MYID"}).text(), cluster.node(1).id);
    ClusterAddressing throughSeed{.throughSeedHost = true};
    Connection viaSeed = Connection::open(nodeEndpoint(cluster.endpoint(0), *second, throughSeed));
    EXPECT_EQ(viaSeed.command({"CLUSTER", "MYID"}).text(), cluster.node(1).id);
}

}  // namespace
}  // namespace lockscope::inspect
