// Discover: a paced scan of the whole keyspace that finds the locks the patterns miss and
// proposes patterns for them, against a real server holding ordinary keys too.
#include <gtest/gtest.h>

#include <map>

#include "lockscope/inspect/discover.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::inspect;
using lockscope::testing::RedisTest;

TEST(Discover, PatternsProposedForKeys) {
    EXPECT_EQ(proposePattern("job-lock:default:nightly"), "job-lock:*");
    EXPECT_EQ(proposePattern("redisson_lock__channel:{x}"), "redisson_lock__channel:*");
    EXPECT_EQ(proposePattern("{orders}:lock"), "{orders}:*");
    EXPECT_EQ(proposePattern("lock{a}"), "lock*");
    EXPECT_EQ(proposePattern("my-resource"), "my-*");
    EXPECT_EQ(proposePattern("nightly"), "nightly");
    EXPECT_EQ(proposePattern("a*b"), "a\\*b");
    EXPECT_EQ(proposePattern(""), "");
}

TEST(Discover, GlobMatchesAsRedisDoes) {
    EXPECT_TRUE(globMatch("lock:*", "lock:{a}"));
    EXPECT_FALSE(globMatch("lock:*", "job-lock:a"));
    EXPECT_TRUE(globMatch("*", ""));
    EXPECT_TRUE(globMatch("a?c", "abc"));
    EXPECT_TRUE(globMatch("a[b-d]e", "ace"));
    EXPECT_FALSE(globMatch("a[^b-d]e", "ace"));
    EXPECT_TRUE(globMatch("a\\*b", "a*b"));
    EXPECT_FALSE(globMatch("a\\*b", "axb"));
    EXPECT_TRUE(globMatch("*lock*", "redisson_lock_queue:{x}"));
    EXPECT_FALSE(globMatch("[", "a"));
    EXPECT_TRUE(globMatch("*a*a*a*", "aaaa"));
}

TEST_F(RedisTest, DiscoverFindsLocksThePatternsMissAndNothingElse) {
    Connection c = connect();
    for (int i = 0; i < 300; ++i) {
        c.command({"SET", "user:" + std::to_string(i), "Ada Lovelace"});
        c.command({"SET", "flag:" + std::to_string(i), "1"});
    }
    c.command({"SET", "lock:{covered}", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "PX", "60000"});
    // redis-py's default names have no prefix.
    c.command({"SET", "nightly-report", "a3b1c0d2e4f611ee8a1b0242ac120002", "PX", "60000"});
    c.command({"SET", "nightly-export", "b3b1c0d2e4f611ee8a1b0242ac120002", "PX", "60000"});
    c.command({"HSET", "orders:{42}", "8743c9c0-0795-4907-87fd-6c719a6b4586:1", "1"});
    c.command({"PEXPIRE", "orders:{42}", "30000"});
    c.command(
        {"SET", "job-lock:default:sync", "ADDED:2026-12-01T00:00:00.000Z@host", "PX", "60000"});

    Connection d = connect();
    std::uint64_t progressCalls = 0;
    DiscoverResult r = discover(d, {.currentPatterns = {"lock:*"}, .maxLoad = 0.5, .count = 100},
                                {}, [&](const ScanProgress&) { ++progressCalls; });
    EXPECT_FALSE(r.cancelled);
    EXPECT_EQ(r.keysScanned, 605u);
    EXPECT_EQ(r.lockShaped, 5u);
    EXPECT_EQ(r.alreadyCovered, 1u);
    EXPECT_GT(progressCalls, 0u);
    std::map<std::string, std::uint64_t> proposed;
    for (const auto& p : r.proposals) proposed[p.pattern] = p.keys;
    EXPECT_EQ(proposed, (std::map<std::string, std::uint64_t>{
                            {"nightly-*", 2}, {"orders:*", 1}, {"job-lock:*", 1}}));
    EXPECT_EQ(r.proposals.front().pattern, "nightly-*");  // most keys first
    EXPECT_EQ(r.proposals.front().examples.size(), 2u);
}

TEST_F(RedisTest, DiscoverStopsWhenAsked) {
    Connection c = connect();
    for (int i = 0; i < 2000; ++i) c.command({"SET", "k" + std::to_string(i), "v"});
    std::stop_source stop;
    stop.request_stop();
    Connection d = connect();
    DiscoverResult r = discover(d, {}, stop.get_token());
    EXPECT_TRUE(r.cancelled);
    EXPECT_LT(r.keysScanned, 2000u);
}
