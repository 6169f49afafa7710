// A hardened server whose optional commands are renamed away (rename-command ROLE/CONFIG/INFO
// ""): connecting, listing and watching still work, and what the inspector can no longer do
// is said once, in the notes. Before, the unknown ROLE failed the whole listing. Keyspace
// notifications that are off are said once too, and polling takes over.
#include <gtest/gtest.h>

#include <algorithm>

#include "cli_runner.h"
#include "inspect_helpers.h"
#include "lockscope/inspect/lock_watch.h"
#include "lockscope/inspect/server_facts.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;
using lockscope::testing::CliTest;
using lockscope::testing::contains;
using lockscope::testing::RedisTest;

namespace {

class RenamedCommandsServer : public CliTest {
  protected:
    LocalRedisServerOptions serverOptions() const override {
        return {.configLines = {"rename-command ROLE \"\"", "rename-command CONFIG \"\"",
                                "rename-command INFO \"\""}};
    }
};

std::size_t countContaining(const std::vector<std::string>& notes, const std::string& part) {
    return static_cast<std::size_t>(std::count_if(
        notes.begin(), notes.end(), [&](const std::string& n) { return contains(n, part); }));
}

}  // namespace

TEST_F(RenamedCommandsServer, ListingWorksAndSaysWhatItCannotTell) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "0123456789abcdef0123456789abcdef", "PX", "60000"});
    ServerFacts facts = probeServer(c);
    EXPECT_EQ(facts.role, ServerRole::Unknown);
    EXPECT_EQ(countContaining(facts.notes, "ROLE is renamed or unknown"), 1u);
    EXPECT_EQ(countContaining(facts.notes, "CONFIG is renamed or unknown"), 1u);
    EXPECT_EQ(countContaining(facts.notes, "INFO is renamed or unknown"), 1u);

    auto run = cli({"list", "-u", url(), "--json"});
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_EQ(jsonLines(run.out).size(), 1u);
    EXPECT_TRUE(contains(run.err, "note: " + url() + ": ROLE is renamed or unknown")) << run.err;

    // The watcher probes once per connection, so says it once, however many steps it takes.
    Connection w = connect();
    LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 60ms});
    for (int i = 0; i < 5; ++i) watch.step();
    EXPECT_EQ(countContaining(watch.server().notes, "ROLE is renamed or unknown"), 1u);
    EXPECT_EQ(watch.table().records().size(), 1u);
}

TEST_F(RedisTest, KeyspaceNotificationsOffArePolledWithOneNote) {
    observer().command({"CONFIG", "SET", "notify-keyspace-events", ""});
    observer().command({"SET", "lock:{a}", "0123456789abcdef0123456789abcdef", "PX", "60000"});
    Connection w = connect();
    LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 60ms});
    for (int i = 0; i < 5; ++i) watch.step();
    EXPECT_EQ(countContaining(watch.notes(), "keyspace notifications are off"), 1u);
    EXPECT_EQ(countContaining(watch.notes(), "polling every 20 ms"), 1u);
    EXPECT_EQ(
        std::string(observer().command({"CONFIG", "GET", "notify-keyspace-events"})[1].text()),
        "");  // never switched on
    // A change is still seen, by polling.
    observer().command({"SET", "lock:{a}", "fedcba9876543210fedcba9876543210", "PX", "60000"});
    bool seen = false;
    for (int i = 0; i < 20 && !seen; ++i)
        for (const auto& r : watch.step().changed)
            seen = seen || r.token == "fedcba9876543210fedcba9876543210";
    EXPECT_TRUE(seen);
}
