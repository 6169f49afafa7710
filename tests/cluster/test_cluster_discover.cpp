// Discover on a real 3-primary cluster: asked through any one node, it scans every shard and
// finds the locks outside the patterns wherever they live (it used to scan the seed node only
// and say "no lock outside the patterns" with most of the keyspace unread); with a node down
// it names the node and its slots and never claims that nothing is missing.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cluster_fixture.h"
#include "lockscope/inspect/discover.h"
#include "redis_fixture.h"

namespace lockscope::inspect {
namespace {

using testing::RedisCluster;

struct CliRun {
    int code = -1;
    std::string out, err;
};

CliRun cli(const std::vector<std::string>& args) {
    static testing::TempDir dir;
    std::string cmd = LOCKSCOPE_CLI;
    for (const auto& a : args) cmd += " '" + a + "'";
    cmd += " 2>'" + dir.path("stderr") + "'";
    CliRun run;
    std::FILE* p = popen(cmd.c_str(), "r");
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) run.out.append(buf, n);
    int status = pclose(p);
    run.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::ifstream e(dir.path("stderr"));
    std::stringstream ss;
    ss << e.rdbuf();
    run.err = ss.str();
    return run;
}

// The n-th key "<prefix>{dI}" whose slot the fixture gave to primary `node`.
std::string keyOn(RedisCluster& cluster, std::size_t node, const std::string& prefix, int n = 0) {
    for (int i = 0;; ++i) {
        std::string key = prefix + "{d" + std::to_string(i) + "}";
        if (cluster.primaryFor(key) == node && n-- == 0) return key;
    }
}

// On every primary: 50 plain keys, one lock under lock:* and one redis-py lock named
// "nightly-…" (no prefix: outside the patterns). 156 keys in all.
void fillEveryPrimary(RedisCluster& cluster) {
    for (std::size_t node = 0; node < 3; ++node) {
        Connection c = cluster.connect(node);
        for (int i = 0; i < 50; ++i) c.command({"SET", keyOn(cluster, node, "user:", i), "Ada"});
        c.command({"SET", keyOn(cluster, node, "lock:"), "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "PX",
                   "600000"});
        c.command({"SET", keyOn(cluster, node, "nightly-"), "a3b1c0d2e4f611ee8a1b0242ac120002",
                   "PX", "600000"});
    }
}

TEST(ClusterDiscover, ScansEveryPrimaryFromAnyNode) {
    RedisCluster cluster;
    fillEveryPrimary(cluster);
    ClusterRouter router(cluster.endpoint(1), {.readOnly = true});
    DiscoverResult r = discover(router, {.currentPatterns = {"lock:*"}, .maxLoad = 1.0});
    EXPECT_TRUE(r.complete());
    EXPECT_EQ(r.keysScanned, 156u);
    EXPECT_EQ(r.lockShaped, 6u);
    EXPECT_EQ(r.alreadyCovered, 3u);
    ASSERT_EQ(r.proposals.size(), 1u);
    EXPECT_EQ(r.proposals[0].pattern, "nightly-*");
    EXPECT_EQ(r.proposals[0].keys, 3u);  // one on each primary
    ASSERT_EQ(r.nodesScanned.size(), 3u);
    for (std::size_t node = 0; node < 3; ++node)
        EXPECT_NE(r.nodesScanned[node].find(std::to_string(cluster.node(node).server->port())),
                  std::string::npos)
            << r.nodesScanned[node];
}

TEST(ClusterDiscover, CliScansEveryPrimaryAndSaysSo) {
    RedisCluster cluster;
    fillEveryPrimary(cluster);
    CliRun json = cli({"discover", "-u", cluster.url(2), "--json", "--max-load", "100%"});
    ASSERT_EQ(json.code, 0) << json.err;
    auto r = nlohmann::json::parse(json.out);
    EXPECT_EQ(r["keys_scanned"], 156);
    EXPECT_EQ(r["partial"], false);
    EXPECT_EQ(r["nodes_scanned"].size(), 3u);
    ASSERT_EQ(r["proposals"].size(), 1u) << json.out;
    EXPECT_EQ(r["proposals"][0]["pattern"], "nightly-*");
    EXPECT_EQ(r["proposals"][0]["keys"], 3);
    CliRun text = cli({"discover", "-u", cluster.url(0), "--max-load", "100%"});
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_NE(text.out.find("156 keys scanned on 3 of 3 nodes, 6 lock-shaped"), std::string::npos)
        << text.out;
}

TEST(ClusterDiscover, ANodeDownMakesThePartialResultSaySoAndClaimNothing) {
    RedisCluster cluster;
    fillEveryPrimary(cluster);
    cluster.node(2).server->stop();
    const std::string slots = std::to_string(cluster.node(2).firstSlot) + "-16383";
    const std::string node2 = "127.0.0.1:" + std::to_string(cluster.node(2).server->port());

    ClusterRouter router(cluster.endpoint(0), {.readOnly = true});
    // The nightly-* locks are covered here: what was read holds nothing new, and yet the
    // answer may not be "nothing is missing", since node 2's keys were not read.
    DiscoverResult r =
        discover(router, {.currentPatterns = {"lock:*", "nightly-*"}, .maxLoad = 1.0});
    EXPECT_FALSE(r.complete());
    EXPECT_TRUE(r.proposals.empty());
    ASSERT_EQ(r.unscanned.size(), 1u);
    EXPECT_EQ(r.unscanned[0].slotRanges, slots);
    EXPECT_EQ(r.nodesScanned.size(), 2u);
    EXPECT_EQ(r.keysScanned, 104u);

    CliRun text = cli({"discover", "-u", cluster.url(0), "--pattern", "lock:*", "--pattern",
                       "nightly-*", "--max-load", "100%"});
    EXPECT_EQ(text.code, 1) << text.out << text.err;
    EXPECT_NE(text.out.find("on 2 of 3 nodes"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("NOT SCANNED: " + node2 + " (slots " + slots + ")"), std::string::npos)
        << text.out;
    EXPECT_EQ(text.out.find("no locks outside the current patterns\n"), std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("the rest is unknown"), std::string::npos) << text.out;
    CliRun json = cli({"discover", "-u", cluster.url(1), "--json", "--max-load", "100%"});
    EXPECT_EQ(json.code, 1) << json.err;
    auto j = nlohmann::json::parse(json.out);
    EXPECT_EQ(j["partial"], true);
    ASSERT_EQ(j["nodes_unscanned"].size(), 1u);
    EXPECT_EQ(j["nodes_unscanned"][0]["slots"], slots);
}

// A plain server behind the router is scanned as before: one server, complete.
TEST(ClusterDiscover, APlainServerIsOneCompleteScan) {
    LocalRedisServer server;
    Connection c = Connection::open(server.endpoint());
    c.command({"SET", "nightly-report", "a3b1c0d2e4f611ee8a1b0242ac120002", "PX", "60000"});
    ClusterRouter router(server.endpoint(), {.readOnly = true});
    DiscoverResult r = discover(router, {.currentPatterns = {"lock:*"}, .maxLoad = 1.0});
    EXPECT_TRUE(r.complete());
    EXPECT_EQ(r.nodesScanned.size(), 1u);
    ASSERT_EQ(r.proposals.size(), 1u);
    EXPECT_EQ(r.proposals[0].pattern, "nightly-*");
}

}  // namespace
}  // namespace lockscope::inspect
