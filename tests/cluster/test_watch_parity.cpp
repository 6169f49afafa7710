// One engine, the same story: the same scripted faults on a real cluster (a slot moved, a
// primary killed and failed over to its replica, a lock written on the new primary) drive the
// watch engine as a program uses it and `lockscope-cli watch --json` at the same time, and
// both report the same failover, the same moves and the same locks where they are; the
// exporter's census, taken afterwards, counts the locks on the same nodes.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "cluster_fixture.h"
#include "cluster_test_keys.h"
#include "lockscope/exporter/lock_exporter.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "sentinel_fixture.h"
#include "server_watch_driver.h"

namespace lockscope::testing {
namespace {

using namespace std::chrono_literals;
using inspect::WatchEvent;

std::string runCli(const std::string& args) {
    std::string out;
    std::FILE* p = popen((std::string(LOCKSCOPE_CLI) + " " + args + " 2>/dev/null").c_str(), "r");
    char buf[4096];
    for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
    return out;
}

// What a user reads of a run: failovers, moves, and where each lock is at the end.
struct Story {
    std::set<std::string> failovers;            // "from -> to"
    std::set<std::string> moved;                // "key from node"
    std::map<std::string, std::string> heldOn;  // key -> the instance it was last shown on
    std::set<std::string> removed;
};

Story storyOfEngine(const std::vector<WatchEvent>& events) {
    Story s;
    for (const auto& e : events) {
        if (e.kind == WatchEvent::Kind::Failover) s.failovers.insert(e.from + " -> " + e.to);
        if (e.kind != WatchEvent::Kind::Rows) continue;
        for (const auto& r : e.rows.changed) s.heldOn[r.key] = r.instanceName();
        for (const auto& k : e.rows.movedAway) s.moved.insert(k + " from " + e.node);
        for (const auto& k : e.rows.removed) s.removed.insert(k);
    }
    return s;
}

Story storyOfCli(const std::string& out) {
    Story s;
    std::istringstream in(out);
    for (std::string text; std::getline(in, text);) {
        auto j = nlohmann::json::parse(text, nullptr, false);
        if (j.is_discarded()) continue;
        const std::string event = j.value("event", "");
        if (event == "failover")
            s.failovers.insert(j.value("from", "") + " -> " + j.value("to", ""));
        if (event == "added") s.heldOn[j.value("key", "")] = j.value("instance", "");
        if (event == "moved")
            s.moved.insert(j.value("key", "") + " from " + j.value("instance", ""));
        if (event == "removed") s.removed.insert(j.value("key", ""));
    }
    return s;
}

TEST(WatchParity, TheEngineAndTheCliTellTheSameStoryOfTheSameFaults) {
    RedisCluster cluster({.replicas = true});
    const std::string moving = keyOnNode(cluster, 0), onKilled = keyOnNode(cluster, 1),
                      steady = keyOnNode(cluster, 2);
    writeLocks(cluster, {moving, onKilled, steady});

    inspect::ServerWatchOptions o;
    o.endpoint = cluster.endpoint(0);
    o.watch.pollInterval = 200ms;
    o.watch.scan.patterns = {"lock:*"};
    inspect::ServerWatch engine(o);
    ServerWatchDriver d(engine);
    d.open();
    auto cli = std::async(std::launch::async, [&] {
        return runCli("watch --json --interval 200 --for 16 --pattern 'lock:*' -u " +
                      cluster.url(0));
    });
    d.runFor(2000ms);
    cluster.moveSlot(inspect::keyHashSlot(moving), 2);  // a slot moved by an operator
    d.runFor(1500ms);
    cluster.node(1).server->stop();  // a node down: its replica (node 4) is promoted
    bool promoted = false;
    for (int i = 0; i < 100 && !promoted; ++i) {
        d.runFor(100ms);
        promoted = cluster.connect(4).command({"ROLE"})[0].text() == "master";
    }
    ASSERT_TRUE(promoted);
    const std::string after = keyOnNode(cluster, 1, 7);
    cluster.connect(4).command({"SET", after, "tok-after", "PX", "60000"});
    d.runUntil([&](const auto& ev) { return shown(ev, after); }, 8s);
    const std::string cliOut = cli.get();
    d.runFor(500ms);

    const Story fromEngine = storyOfEngine(d.events()), fromCli = storyOfCli(cliOut);
    EXPECT_EQ(fromEngine.failovers,
              std::set<std::string>{cluster.url(1) + " -> " + cluster.url(4)});
    EXPECT_EQ(fromCli.failovers, fromEngine.failovers) << cliOut;
    EXPECT_EQ(fromEngine.moved, std::set<std::string>{moving + " from " + cluster.url(0)});
    EXPECT_EQ(fromCli.moved, fromEngine.moved) << cliOut;
    for (const auto& key : {moving, onKilled, steady, after})
        EXPECT_EQ(fromCli.heldOn.at(key), fromEngine.heldOn.at(key)) << key << "\n" << cliOut;
    EXPECT_EQ(fromEngine.heldOn.at(moving), cluster.url(2));
    EXPECT_EQ(fromEngine.heldOn.at(after), cluster.url(4));
    EXPECT_TRUE(fromEngine.removed.empty());  // nothing was released
    EXPECT_EQ(fromCli.removed, fromEngine.removed) << cliOut;

    // The exporter, on the same engine, counts each lock on the node the watch shows it on.
    exporter::ExporterOptions x;
    x.listen = "127.0.0.1:0";
    x.instances = {cluster.endpoint(0)};
    x.scan.patterns = {"lock:*"};
    x.interval = 3600s;
    exporter::LockExporter census(x);
    census.censusOnce();
    const std::string text = census.scrapeText();
    std::map<std::string, int> perNode;  // the engine's tables at the end
    for (const auto& n : engine.nodes())
        for (const auto& [key, r] : n.watch->table().records()) ++perNode[r->instanceName()];
    for (const auto& [node, count] : perNode) {
        const std::string series = R"(lockscope_locks{instance=")" + cluster.url(0) +
                                   R"(",node=")" + node + R"(",kind="unknown"} )" +
                                   std::to_string(count);
        EXPECT_NE(text.find(series), std::string::npos) << series << "\n" << text;
    }
}

// Behind Sentinel: a failover, and a lock written on the new primary, told alike.
TEST(WatchParity, TheEngineAndTheCliTellTheSameStoryOfASentinelFailover) {
    SentinelGroup group;
    {
        Connection c = Connection::open(group.server(0).endpoint());
        c.command({"SET", "lock:{job}", "tok-1", "PX", "120000"});
        c.command({"WAIT", "1", "2000"});
    }
    inspect::ServerWatchOptions o;
    o.sentinel = group.target();
    o.watch.pollInterval = 200ms;
    o.watch.scan.patterns = {"lock:*"};
    inspect::ServerWatch engine(o);
    ServerWatchDriver d(engine);
    d.open();
    auto cli = std::async(std::launch::async, [&] {
        return runCli("watch --json --interval 200 --for 18 --pattern 'lock:*' -u '" + group.url() +
                      "'");
    });
    d.runFor(1500ms);
    group.failover();
    Connection::open(group.server(1).endpoint())
        .command({"SET", "lock:{after}", "tok-2", "PX", "120000"});
    d.runUntil([](const auto& ev) { return shown(ev, "lock:{after}"); }, 10s);
    const std::string cliOut = cli.get();
    const Story fromEngine = storyOfEngine(d.events()), fromCli = storyOfCli(cliOut);
    EXPECT_EQ(fromEngine.failovers,
              std::set<std::string>{group.server(0).endpoint().display() + " -> " +
                                    group.server(1).endpoint().display()});
    EXPECT_EQ(fromCli.failovers, fromEngine.failovers) << cliOut;
    for (const std::string key : {"lock:{job}", "lock:{after}"})
        EXPECT_EQ(fromCli.heldOn.at(key), fromEngine.heldOn.at(key)) << key << "\n" << cliOut;
    EXPECT_EQ(fromCli.removed, fromEngine.removed) << cliOut;
}

}  // namespace
}  // namespace lockscope::testing
