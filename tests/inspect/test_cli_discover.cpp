// lockscope-cli discover against a real server: the locks outside the patterns are found and
// their patterns proposed; plain keys never are; bad input changes nothing.
#include <gtest/gtest.h>

#include <map>

#include "cli_runner.h"
#include "inspect_helpers.h"

using namespace lockscope;
using lockscope::testing::CliTest;
using lockscope::testing::contains;

namespace {

void fillMixedKeyspace(Connection& c) {
    std::vector<std::vector<std::string>> plain;
    for (int i = 0; i < 1000; ++i) {
        plain.push_back({"SET", "user:" + std::to_string(i), "Ada Lovelace"});
        plain.push_back({"SET", "session:" + std::to_string(i),
                         "{\"user\":" + std::to_string(i) + "}", "EX", "600"});
    }
    c.pipeline(plain);
    c.command({"SET", "lock:{covered}", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "PX", "60000"});
    // redis-py's Lock("nightly-report") with its uuid1 token: no prefix at all.
    c.command({"SET", "nightly-report", "a3b1c0d2e4f611ee8a1b0242ac120002", "PX", "60000"});
    c.command({"SET", "nightly-export", "b3b1c0d2e4f611ee8a1b0242ac120002", "PX", "60000"});
    c.command(
        {"SET", "job-lock:default:sync", "ADDED:2026-12-01T00:00:00.000Z@host", "PX", "60000"});
}

}  // namespace

TEST_F(CliTest, DiscoverProposesPatternsForTheLocksTheyMiss) {
    Connection c = connect();
    fillMixedKeyspace(c);
    auto run = cli({"discover", "-u", url(), "--json", "--max-load", "100%"});
    ASSERT_EQ(run.code, 0) << run.err;
    auto lines = jsonLines(run.out);
    ASSERT_EQ(lines.size(), 1u) << run.out;
    auto& r = lines[0];
    EXPECT_EQ(r["instance"], url());
    EXPECT_EQ(r["keys_scanned"], 2004);
    EXPECT_EQ(r["lock_shaped"], 4);
    EXPECT_EQ(r["already_covered"], 1);  // lock:{covered}, under the default lock:*
    EXPECT_EQ(r["partial"], false);
    std::map<std::string, int> proposed;
    for (const auto& p : r["proposals"]) proposed[p["pattern"]] = p["keys"];
    EXPECT_EQ(proposed, (std::map<std::string, int>{{"nightly-*", 2}, {"job-lock:*", 1}}));
    EXPECT_EQ(r["proposals"][0]["pattern"], "nightly-*");  // most keys first
    EXPECT_EQ(r["proposals"][1]["kinds"], nlohmann::json::array({"shedlock"}));
    // The text form says the same, with the count of keys read.
    auto text = cli({"discover", "-u", url()});
    ASSERT_EQ(text.code, 0) << text.err;
    EXPECT_TRUE(contains(text.out, "2004 keys scanned, 4 lock-shaped, 1 already covered by lock:*"))
        << text.out;
    EXPECT_TRUE(contains(text.out, "nightly-*")) << text.out;
    EXPECT_FALSE(contains(text.out, "user:")) << text.out;
    // With the proposals added, nothing is left to propose.
    auto after = cli({"discover", "-u", url(), "--pattern", "lock:*", "--pattern", "nightly-*",
                      "--pattern", "job-lock:*"});
    EXPECT_TRUE(contains(after.out, "no locks outside the current patterns")) << after.out;
}

TEST_F(CliTest, DiscoverRefusesBadInputAndNamesUnreachableServers) {
    Connection c = connect();
    c.command({"SET", "nightly-report", "a3b1c0d2e4f611ee8a1b0242ac120002", "PX", "60000"});
    EXPECT_EQ(cli({"discover", "-u", url(), "extra"}).code, 2);
    EXPECT_EQ(cli({"discover", "-u", url(), "--max-load", "0%"}).code, 2);
    EXPECT_EQ(cli({"discover", "-u", url(), "--pattern", ""}).code, 2);
    auto refused = cli({"discover", "-p", std::to_string(findFreePort())});
    EXPECT_EQ(refused.code, 6);
    EXPECT_TRUE(contains(refused.err, "refused")) << refused.err;
    // A binary key that looks like a lock is proposed escaped, and the JSON stays valid.
    c.command({"SET", std::string("bin\xff\x01-lock", 10), "c3b1c0d2e4f611ee8a1b0242ac120002", "PX",
               "60000"});
    auto run = cli({"discover", "-u", url(), "--json", "--max-load", "100%"});
    ASSERT_EQ(run.code, 0) << run.err;
    auto lines = jsonLines(run.out);
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_EQ(lines[0]["escaped"], true) << run.out;
    EXPECT_EQ(keyCount(), 2);
}
