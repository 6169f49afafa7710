// lockscope-cli watch: the reasons --json gives for a removal, non-lock keys on request, and
// the load it reports (issues 12 and 18).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <thread>

#include "cli_process.h"
#include "cli_runner.h"
#include "inspect_helpers.h"
#include "lockscope/proxy/loopback_proxy.h"

using namespace lockscope;
using namespace lockscope::testing;
using namespace std::chrono_literals;

TEST_F(CliTest, WatchJsonSaysARemovalWasAServerRestart) {
    Connection c = connect();
    c.command({"SET", "lock:{held}", "t1", "PX", "60000"});
    std::thread restart([&] {
        std::this_thread::sleep_for(800ms);
        server().restart();  // no persistence: it comes back empty, with another run_id
    });
    auto run = cli({"watch", "-u", url(), "--for", "4", "--interval", "100", "--json"});
    restart.join();
    ASSERT_EQ(run.code, 0) << run.err;
    std::vector<nlohmann::json> removed;
    bool restartLine = false;
    for (const auto& l : jsonLines(run.out)) {
        if (l["event"] == "removed") removed.push_back(l);
        restartLine = restartLine || l["event"] == "server_restarted";
    }
    ASSERT_EQ(removed.size(), 1u) << run.out;
    EXPECT_EQ(removed[0]["key"], "lock:{held}");
    EXPECT_EQ(removed[0]["reason"], "server restarted") << run.out;
    EXPECT_TRUE(restartLine) << run.out;
}

TEST_F(CliTest, WatchJsonSaysAKeyWentWhileTheConnectionWasLost) {
    // A lock deleted while the watch could not reach the server: the reconciling rescan
    // removed it as "deleted", as if it had been seen going; no one saw how it went.
    Connection c = connect();
    c.command({"SET", "lock:{kept}", "0123456789abcdef0123456789abcdef", "PX", "600000"});
    c.command({"SET", "lock:{gone}", "fedcba9876543210fedcba9876543210", "PX", "600000"});
    LoopbackProxy proxy(endpoint());
    CliProcess watch({"watch", "-u", proxy.endpoint().display(), "--interval", "100", "--json"},
                     dir.path("watch-err"));
    auto waitFor = [&](const std::string& event) -> nlohmann::json {
        while (auto l = watch.line(10s)) {
            auto j = nlohmann::json::parse(*l);
            if (j["event"] == event) return j;
        }
        return {};
    };
    ASSERT_FALSE(waitFor("added").is_null()) << watch.errors();
    proxy.setPartitioned(true);
    ASSERT_FALSE(waitFor("disconnected").is_null()) << watch.errors();
    c.command({"DEL", "lock:{gone}"});
    proxy.setPartitioned(false);
    ASSERT_FALSE(waitFor("reconnected").is_null()) << watch.errors();
    auto removed = waitFor("removed");
    ASSERT_FALSE(removed.is_null()) << watch.errors();
    EXPECT_EQ(removed["key"], "lock:{gone}");
    EXPECT_EQ(removed["reason"], "connection lost") << removed.dump();
    watch.interrupt();
    watch.rest();
    EXPECT_EQ(watch.wait().first, 130);
}

TEST_F(CliTest, WatchLeavesOrdinaryKeysOutUnlessAskedFor) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "0123456789abcdef0123456789abcdef", "PX", "60000"});
    c.command({"SET", "cache:config", "plain value"});  // no TTL, not a token
    auto keysAdded = [&](const CliRun& run) {
        std::set<std::string> keys;
        for (const auto& l : jsonLines(run.out))
            if (l["event"] == "added") keys.insert(l["key"].get<std::string>());
        return keys;
    };
    auto plain =
        cli({"watch", "-u", url(), "--pattern", "*", "--for", "1", "--interval", "100", "--json"});
    ASSERT_EQ(plain.code, 0) << plain.err;
    EXPECT_EQ(keysAdded(plain), (std::set<std::string>{"lock:{a}"})) << plain.out;
    auto all = cli({"watch", "-u", url(), "--pattern", "*", "--for", "1", "--interval", "100",
                    "--json", "--include-non-locks"});
    ASSERT_EQ(all.code, 0) << all.err;
    EXPECT_EQ(keysAdded(all), (std::set<std::string>{"lock:{a}", "cache:config"})) << all.out;
}

TEST_F(CliTest, WatchShowsItsLoadAgainstTheBudget) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "tok", "PX", "60000"});
    auto run = cli({"watch", "-u", url(), "--for", "1", "--interval", "100", "--max-load", "3%"});
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_TRUE(contains(run.out, "commands/s, server ")) << run.out;
    EXPECT_TRUE(contains(run.out, "(budget 3%)")) << run.out;
    EXPECT_EQ(cli({"watch", "-u", url(), "--for", "1", "--max-load", "0%"}).code, 2);
}
