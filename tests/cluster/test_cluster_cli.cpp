// lockscope-cli on a real cluster: list from any node lists every lock once with its node and
// slot; release and expire reach the node of each key; --cluster-map and --cluster-via-seed
// reach nodes announced at unreachable names; bad --cluster-map values are usage errors.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <future>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

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
    // One URL, three nodes: the table names the node of each lock.
    EXPECT_NE(table.out.find("INSTANCE"), std::string::npos) << table.out;
    for (std::size_t node = 0; node < 3; ++node)
        EXPECT_NE(table.out.find(cluster.url(node)), std::string::npos) << table.out;

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

// watch on one node of a cluster shows the locks of every primary, and when a primary dies
// it follows the replica the cluster promotes (an event), reading what that node holds.
TEST(ClusterCli, WatchCoversEveryPrimaryAndFollowsAFailover) {
    using namespace std::chrono_literals;
    RedisCluster cluster({.replicas = true});
    std::vector<std::string> keys;
    for (std::size_t node = 0; node < 3; ++node) keys.push_back(testing::keyOnNode(cluster, node));
    testing::writeLocks(cluster, keys);
    // Long enough for a key written after the promotion to be found by a sweep on the new
    // primary: its watch sweeps at once after its rescan, then 5 s later (rescanInterval);
    // with 9 s, a run under ctest's load ended before that second sweep.
    auto watch = std::async(std::launch::async, [&] {
        return cli({"watch", "--json", "--interval", "200", "--for", "13", "-u", cluster.url(0)});
    });
    std::this_thread::sleep_for(1500ms);
    cluster.node(1).server->stop();  // its replica is node 4
    bool promoted = false;
    for (int i = 0; i < 60 && !promoted; ++i) {
        std::this_thread::sleep_for(100ms);
        promoted = cluster.connect(4).command({"ROLE"})[0].text() == "master";
    }
    ASSERT_TRUE(promoted);
    const std::string after = testing::keyOnNode(cluster, 1, 7);
    cluster.connect(4).command({"SET", after, "tok-after", "PX", "60000"});
    CliRun w = watch.get();
    EXPECT_EQ(w.code, 0) << w.err;
    for (const auto& k : keys) EXPECT_NE(w.out.find(k), std::string::npos) << k << "\n" << w.out;
    EXPECT_NE(w.out.find("\"event\":\"failover\""), std::string::npos) << w.out;
    EXPECT_NE(w.out.find(cluster.url(4)), std::string::npos) << w.out;
    EXPECT_NE(w.out.find(after), std::string::npos) << w.out;  // read from the new primary
}

// watch while an operator moves a slot holding locks: each lock is reported moved from the old
// owner and added under the new one in the same round (no "removed": it was never released),
// and the topology change is an event of its own.
TEST(ClusterCli, WatchFollowsLocksToTheNodeTheirSlotMovedTo) {
    using namespace std::chrono_literals;
    RedisCluster cluster;
    const std::string base = testing::keyOnNode(cluster, 0);
    const std::vector<std::string> keys{base + ":a", base + ":b"};
    testing::writeLocks(cluster, keys);
    auto watch = std::async(std::launch::async, [&] {
        return cli({"watch", "--json", "--interval", "200", "--for", "4", "-u", cluster.url(0)});
    });
    std::this_thread::sleep_for(1500ms);
    cluster.moveSlot(keyHashSlot(base), 2);
    CliRun w = watch.get();
    EXPECT_EQ(w.code, 0) << w.err;
    bool topology = false;
    for (const auto& key : keys) {
        int moved = 0, addedOnNew = 0, removed = 0;
        for (const auto& line : w.lines()) {
            const std::string event = line.value("event", "");
            topology |= event == "topology" &&
                        line.value("change", "").find("slots moved") != std::string::npos;
            if (line.value("key", "") != key) continue;
            moved += event == "moved" && line.value("instance", "") == cluster.url(0);
            addedOnNew += event == "added" && line.value("instance", "") == cluster.url(2);
            removed += event == "removed";
        }
        EXPECT_EQ(moved, 1) << key << "\n" << w.out;
        EXPECT_EQ(addedOnNew, 1) << key << "\n" << w.out;
        EXPECT_EQ(removed, 0) << key << "\n" << w.out;
    }
    EXPECT_TRUE(topology) << w.out;
}

// watch on a quiet cluster does not ask it for its topology every second per primary (it
// did: CLUSTER SHARDS on each poll round, for each primary): asked at the start, then only for
// a reason (a failed poll, a redirect) or every 30 s, as the window does.
TEST(ClusterCli, WatchAsksAQuietClusterForItsTopologyOnlyForAReason) {
    RedisCluster cluster;
    std::vector<std::string> keys;
    for (std::size_t node = 0; node < 3; ++node) keys.push_back(testing::keyOnNode(cluster, node));
    testing::writeLocks(cluster, keys);
    for (std::size_t node = 0; node < 3; ++node)
        cluster.connect(node).command({"CONFIG", "RESETSTAT"});
    CliRun w = cli({"watch", "--json", "--interval", "200", "--for", "6", "-u", cluster.url(0)});
    ASSERT_EQ(w.code, 0) << w.err;
    for (const auto& k : keys) EXPECT_NE(w.out.find(k), std::string::npos) << k << "\n" << w.out;
    long long calls = 0;  // CLUSTER SHARDS, SLOTS, NODES, MYID... on the primaries
    for (std::size_t node = 0; node < 3; ++node) {
        std::string info(cluster.connect(node).command({"INFO", "commandstats"}).text());
        for (auto at = info.find("cmdstat_cluster"); at != std::string::npos;
             at = info.find("cmdstat_cluster", at + 1))
            calls += std::stoll(info.substr(info.find("calls=", at) + 6));
    }
    std::printf("CLUSTER commands in a 6 s watch of 3 primaries: %lld\n", calls);
    EXPECT_LE(calls, 4) << "CLUSTER commands in a 6 s watch";
}

// doctor --observe on one node of a cluster watches every primary: each node's locks are judged.
TEST(ClusterCli, DoctorObserveCoversEveryPrimary) {
    RedisCluster cluster;
    std::vector<std::string> keys;
    for (std::size_t node = 0; node < 3; ++node) keys.push_back(testing::keyOnNode(cluster, node));
    testing::writeLocks(cluster, keys);
    CliRun doctor = cli({"doctor", "--observe", "1", "--json", "-u", cluster.url(2)});
    ASSERT_EQ(doctor.code, 0) << doctor.err;
    auto lines = doctor.lines();
    ASSERT_EQ(lines.size(), keys.size()) << doctor.out;
    for (const auto& j : lines) {
        std::string key = j["key"];
        EXPECT_EQ(j["instance"], cluster.url(cluster.primaryFor(key))) << key;
    }
}

class PlainServerCli : public testing::RedisTest {};

// Release and expire on a plain server cost no topology question: the server's own count of
// CLUSTER commands stays at zero.
TEST_F(PlainServerCli, ReleaseAndExpireSendNoClusterCommand) {
    observer().command({"SET", "lock:a", "tok-a", "PX", "60000"});
    observer().command({"SET", "lock:b", "tok-b"});
    observer().command({"CONFIG", "RESETSTAT"});
    const std::string url = "redis://127.0.0.1:" + std::to_string(server().port());
    CliRun release = cli({"release", "lock:a", "--token", "tok-a", "-u", url});
    EXPECT_EQ(release.code, 0) << release.err;
    CliRun expire = cli({"expire", "lock:b", "--token", "tok-b", "--ttl", "5000", "-u", url});
    EXPECT_EQ(expire.code, 0) << expire.err;
    EXPECT_EQ(observer().command({"EXISTS", "lock:a"}).integer(), 0);
    EXPECT_GT(observer().command({"PTTL", "lock:b"}).integer(), 0);
    std::string stats(observer().command({"INFO", "commandstats"}).text());
    EXPECT_EQ(stats.find("cmdstat_cluster"), std::string::npos) << stats;
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
        args.emplace_back("--cluster-map");
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
    CliRun r = cli({"release", d + ":LOCKED", "--fields", R"({")" + jid + R"(":"1764549331.12"})",
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
