// lockscope-cli on a real cluster: list from any node lists every lock once with its node and
// slot; release and expire reach the node of each key; --cluster-map and --cluster-via-seed
// reach nodes announced at unreachable names; bad --cluster-map values are usage errors.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cluster_fixture.h"
#include "cluster_test_keys.h"
#include "formats_test_support.h"
#include "lockscope/inspect/hash_slot.h"
#include "redis_fixture.h"

namespace lockscope::inspect {
namespace {

using testing::RedisCluster;

struct CliRun {
    int code = -1;
    std::string out, err;
    std::vector<nlohmann::json> lines() const {
        std::vector<nlohmann::json> all;
        std::istringstream in(out);
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) all.push_back(nlohmann::json::parse(line));
        return all;
    }
};

CliRun cli(const std::vector<std::string>& args) {
    static testing::TempDir dir;
    std::string cmd = "LOCKSCOPE_AUDIT_LOG='" + dir.path("audit.jsonl") + "' " + LOCKSCOPE_CLI;
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

TEST(ClusterCli, ListFromAnyNodeListsEveryLockOnceAndReleaseReachesEveryNode) {
    RedisCluster cluster;
    std::vector<std::string> keys;
    for (std::size_t node = 0; node < 3; ++node)
        for (int i = 0; i < 30; ++i) keys.push_back(testing::keyOnNode(cluster, node, i));
    testing::writeLocks(cluster, keys);
    CliRun list = cli({"list", "-u", cluster.url(2), "--json"});
    ASSERT_EQ(list.code, 0) << list.err;
    auto lines = list.lines();
    ASSERT_EQ(lines.size(), keys.size());
    std::set<std::string> seen;
    for (const auto& j : lines) {
        std::string key = j["key"];
        EXPECT_TRUE(seen.insert(key).second) << key;
        EXPECT_EQ(j["slot"], keyHashSlot(key));
        EXPECT_EQ(j["instance"], cluster.url(cluster.primaryFor(key)));
    }
    CliRun table = cli({"list", "-u", cluster.url(0)});
    ASSERT_EQ(table.code, 0) << table.err;
    EXPECT_NE(table.out.find("90 locks on 3 instances"), std::string::npos) << table.out;

    for (std::size_t node = 0; node < 3; ++node) {
        std::string key = testing::keyOnNode(cluster, node, 0);
        CliRun wrong = cli({"release", key, "--token", "not-the-holder", "-u", cluster.url(0)});
        EXPECT_EQ(wrong.code, 4) << wrong.err;
        CliRun ok = cli({"release", key, "--token", "tok-" + key, "-u", cluster.url(0)});
        EXPECT_EQ(ok.code, 0) << ok.err;
        EXPECT_EQ(cluster.connect(node).command({"EXISTS", key}).integer(), 0);
        std::string other = testing::keyOnNode(cluster, node, 1);
        cluster.connect(node).command({"PERSIST", other});
        CliRun expire = cli(
            {"expire", other, "--token", "tok-" + other, "--ttl", "5000", "-u", cluster.url(1)});
        EXPECT_EQ(expire.code, 0) << expire.err;
        EXPECT_GT(cluster.connect(node).command({"PTTL", other}).integer(), 0);
    }
}

TEST(ClusterCli, NodesAnnouncedAtUnreachableNamesAreReachedThroughTheMapOrTheSeedHost) {
    RedisCluster cluster({.unreachableHostPrefix = "lockscope-node"});
    std::vector<std::string> keys;
    for (std::size_t node = 0; node < 3; ++node) keys.push_back(testing::keyOnNode(cluster, node));
    testing::writeLocks(cluster, keys);
    CliRun unmapped = cli({"list", "-u", cluster.url(0), "--json"});
    EXPECT_EQ(unmapped.code, 6) << unmapped.err;  // the others cannot be reached...
    EXPECT_NE(unmapped.err.find("not shown"), std::string::npos) << unmapped.err;
    EXPECT_EQ(unmapped.out.find(keys[1]), std::string::npos);
    EXPECT_NE(unmapped.out.find(keys[0]), std::string::npos);  // ...the seed is, as given
    std::vector<std::string> args{"list", "-u", cluster.url(0), "--json"};
    for (std::size_t node = 0; node < 3; ++node) {
        args.push_back("--cluster-map");
        args.push_back("lockscope-node" + std::to_string(node) +
                       ".invalid:" + std::to_string(cluster.node(node).server->port()) +
                       "=127.0.0.1:" + std::to_string(cluster.node(node).server->port()));
    }
    CliRun mapped = cli(args);
    ASSERT_EQ(mapped.code, 0) << mapped.err;
    EXPECT_EQ(mapped.lines().size(), 3u);
    CliRun viaSeed = cli({"list", "-u", cluster.url(1), "--cluster-via-seed", "--json"});
    ASSERT_EQ(viaSeed.code, 0) << viaSeed.err;
    EXPECT_EQ(viaSeed.lines().size(), 3u);
    CliRun release = cli({"release", keys[2], "--token", "tok-" + keys[2], "-u", cluster.url(0),
                          "--cluster-via-seed"});
    EXPECT_EQ(release.code, 0) << release.err;
}

TEST(ClusterCli, DoctorFlagsAFenceCounterOnAnotherNode) {
    RedisCluster cluster;
    std::string split;  // lock:jobN and fence:jobN on different primaries
    for (int i = 0; split.empty(); ++i) {
        std::string name = "job" + std::to_string(i);
        if (cluster.primaryFor("lock:" + name) != cluster.primaryFor("fence:" + name)) split = name;
    }
    cluster.connect(cluster.primaryFor("lock:" + split))
        .command({"SET", "lock:" + split, "0123456789abcdef0123456789abcdef", "PX", "60000"});
    cluster.connect(cluster.primaryFor("fence:" + split)).command({"SET", "fence:" + split, "7"});
    const std::string tagged = testing::keyOnNode(cluster, 1);  // lock:{rN}, fence:{rN}
    const std::string taggedFence = "fence:" + tagged.substr(5);
    cluster.connect(1).command({"SET", tagged, "0123456789abcdef0123456789abcdef", "PX", "60000"});
    cluster.connect(1).command({"SET", taggedFence, "3"});
    CliRun list = cli({"list", "-u", cluster.url(0), "--json"});
    ASSERT_EQ(list.code, 0) << list.err;
    bool sawSplit = false, sawTagged = false;
    for (const auto& j : list.lines()) {
        std::vector<std::string> findings = j["findings"];
        auto has = [&](const char* rule) {
            return std::find(findings.begin(), findings.end(), rule) != findings.end();
        };
        if (j["key"] == "lock:" + split) {
            sawSplit = true;
            EXPECT_EQ(j["fence"], 7);  // read from the node that serves the counter
            EXPECT_TRUE(has("fence-on-other-node")) << j.dump();
            EXPECT_TRUE(has("cross-slot")) << j.dump();
        } else if (j["key"] == tagged) {
            sawTagged = true;
            EXPECT_EQ(j["fence"], 3);
            EXPECT_FALSE(has("fence-on-other-node")) << j.dump();
            EXPECT_FALSE(has("cross-slot")) << j.dump();
        }
    }
    EXPECT_TRUE(sawSplit && sawTagged) << list.out;
}

TEST(ClusterCli, ReleaseOfASidekiqDigestReachesTheNodeOfEachOfItsKeys) {
    // The digest's keys hash to several slots: the one cross-slot script was refused with
    // CROSSSLOT (exit 1, nothing released); now each slot's keys go to their node.
    RedisCluster cluster;
    const std::string d = formats_test::kDigest, jid = formats_test::kJid;
    auto on = [&](const std::vector<std::string>& command) {
        std::vector<std::string_view> argv(command.begin(), command.end());
        return cluster.connect(cluster.primaryFor(command.at(1))).command(argv);
    };
    formats_test::writeSidekiqDigest([&](const std::vector<std::string>& command) { on(command); });
    CliRun r = cli({"release", d + ":LOCKED", "--fields", "{\"" + jid + "\":\"1764549331.12\"}",
                    "-u", cluster.url(0)});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("hash slots"), std::string::npos) << r.out;
    for (const std::string& key : {d, d + ":LOCKED", d + ":INFO"})
        EXPECT_EQ(on({"EXISTS", key}).integer(), 0) << key;
    EXPECT_TRUE(on({"ZSCORE", "uniquejobs:digests", d}).isNil());
    EXPECT_EQ(on({"LRANGE", d + ":QUEUED", "0", "-1"}).size(), 1u) << "the wake-up sentinel";
}

TEST(ClusterCli, BadClusterMapIsAUsageErrorAndSendsNothing) {
    for (const char* bad : {"", "a", "a:1", "a:1=b", "a:1=b:0", "a:1=b:2=c:3", "a:x=b:2"}) {
        CliRun r = cli({"list", "-u", "redis://127.0.0.1:1", "--cluster-map", bad});
        EXPECT_EQ(r.code, 2) << bad << ": " << r.err;
        EXPECT_NE(r.err.find("--cluster-map"), std::string::npos) << r.err;
    }
}

}  // namespace
}  // namespace lockscope::inspect
