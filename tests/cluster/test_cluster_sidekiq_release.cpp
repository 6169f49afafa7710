// A sidekiq-unique-jobs digest released on a real Redis Cluster: its keys (the digest, QUEUED,
// PRIMED, LOCKED, INFO and the two sets of digests) hash to different slots, so one script
// with all of them was refused with CROSSSLOT and the lock stayed. Now one call per slot:
// LOCKED's slot compares first, the others are tidied, QUEUED's wakes a blocked job last.
// Keys written with the commands sidekiq-unique-jobs' lock.lua sends (as
// tests/formats/formats_test_support.cpp), each on the node that serves it.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <set>
#include <thread>

#include "cluster_fixture.h"
#include "formats_test_support.h"
#include "inspect/formats/sidekiq_release.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/library_release.h"

namespace lockscope::inspect {
namespace {

using namespace std::chrono_literals;
using testing::RedisCluster;

using formats_test::kDigest;
using formats_test::kJid;

Reply on(RedisCluster& cluster, const std::vector<std::string>& command) {
    Connection c = cluster.connect(cluster.primaryFor(command.at(1)));
    std::vector<std::string_view> argv(command.begin(), command.end());
    return c.command(argv);
}

// The digest as sidekiq-unique-jobs writes it (formats_test_support), each command on its
// key's node, with an entry in expiring_digests (v8) and a job being primed.
void writeDigest(RedisCluster& cluster, const std::string& d, const std::string& jid) {
    formats_test::writeSidekiqDigest(
        [&](const std::vector<std::string>& command) { on(cluster, command); }, d, jid);
    on(cluster, {"ZADD", "uniquejobs:expiring_digests", "1764549931.12", d});
    on(cluster, {"LPUSH", d + ":PRIMED", jid});
}

LibraryRelease::KeyRoute routeThrough(ClusterRouter& router) {
    return [&router](std::string_view key, const LibraryRelease::ConnectionAct& act,
                     const LibraryRelease::ConnectionAct& beforeAsk) {
        router.onKey(key, act, beforeAsk);
    };
}

TEST(ClusterSidekiqRelease, TheDigestsKeysSpanSeveralSlotsAndThePlanNeverCrossesOne) {
    std::set<std::uint16_t> slots;
    for (const auto& suffix : {"", ":QUEUED", ":PRIMED", ":LOCKED", ":INFO"})
        slots.insert(keyHashSlot(kDigest + suffix));
    ASSERT_GT(slots.size(), 1u) << "the test needs keys in several slots";
    auto plan = formats::planSidekiqRelease(kDigest, true);
    ASSERT_GT(plan.size(), 1u);
    EXPECT_TRUE(plan.front().compares);
    EXPECT_EQ(plan.front().keys.front(), kDigest + ":LOCKED");
    std::size_t keys = 0;
    for (const auto& call : plan) {
        keys += call.keys.size();
        for (const auto& key : call.keys)
            EXPECT_EQ(keyHashSlot(key), keyHashSlot(call.keys.front())) << key;
    }
    EXPECT_EQ(keys, 7u);
    // QUEUED (the wake-up) is in the last call; on a plain server all is one call.
    const auto& last = plan.back().keys;
    EXPECT_NE(std::find(last.begin(), last.end(), kDigest + ":QUEUED"), last.end());
    EXPECT_EQ(formats::planSidekiqRelease(kDigest, false).size(), 1u);
}

TEST(ClusterSidekiqRelease, ReleasesEveryKeyOnEveryNodeAndWakesABlockedJob) {
    RedisCluster cluster;
    writeDigest(cluster, kDigest, kJid);
    on(cluster, {"DEL", kDigest + ":QUEUED"});  // the queued job was taken: the next one waits
    // A job waiting for the lock blocks on QUEUED (sidekiq-unique-jobs' BRPOPLPUSH QUEUED
    // PRIMED); on a cluster both keys must share a slot, so it waits on QUEUED alone here.
    ConnectionOptions patient;
    patient.commandTimeout = 15s;
    Connection waiter =
        Connection::open(cluster.endpoint(cluster.primaryFor(kDigest + ":QUEUED")), patient);
    auto woke = std::async(std::launch::async, [&] {
        return waiter.command({"BLPOP", kDigest + ":QUEUED", "10"});
    });
    std::this_thread::sleep_for(200ms);

    ClusterRouter router(cluster.endpoint(0), {});
    ASSERT_TRUE(router.isCluster());
    Connection& first = router.connectionForKey(kDigest + ":LOCKED");
    auto result =
        LibraryRelease(first, nullptr, routeThrough(router)).releaseSidekiqDigest(kDigest, {kJid});
    ASSERT_EQ(result.outcome, ActionOutcome::Done) << result.message;
    EXPECT_NE(result.message.find("hash slots"), std::string::npos) << result.message;
    EXPECT_EQ(result.message.find("could not"), std::string::npos) << result.message;

    for (const std::string& key :
         {kDigest, kDigest + ":PRIMED", kDigest + ":LOCKED", kDigest + ":INFO"})
        EXPECT_EQ(on(cluster, {"EXISTS", key}).integer(), 0) << key;
    EXPECT_TRUE(on(cluster, {"ZSCORE", "uniquejobs:digests", kDigest}).isNil());
    EXPECT_TRUE(on(cluster, {"ZSCORE", "uniquejobs:expiring_digests", kDigest}).isNil());
    ASSERT_EQ(woke.wait_for(5s), std::future_status::ready) << "the blocked job never woke";
    Reply popped = woke.get();
    ASSERT_FALSE(popped.isNil());
    EXPECT_EQ(popped[1].text(), "1");  // the wake-up sentinel
}

TEST(ClusterSidekiqRelease, ALockThatChangedHandsIsLeftWholeOnEveryNode) {
    RedisCluster cluster;
    writeDigest(cluster, kDigest, "another-job-took-it");
    ClusterRouter router(cluster.endpoint(1), {});
    Connection& first = router.connectionForKey(kDigest + ":LOCKED");
    auto result =
        LibraryRelease(first, nullptr, routeThrough(router)).releaseSidekiqDigest(kDigest, {kJid});
    EXPECT_EQ(result.outcome, ActionOutcome::TokenChanged) << result.message;
    for (const std::string& key :
         {kDigest, kDigest + ":PRIMED", kDigest + ":LOCKED", kDigest + ":INFO"})
        EXPECT_EQ(on(cluster, {"EXISTS", key}).integer(), 1) << key;
    EXPECT_FALSE(on(cluster, {"ZSCORE", "uniquejobs:digests", kDigest}).isNil());
    Reply queued = on(cluster, {"LRANGE", kDigest + ":QUEUED", "0", "-1"});
    ASSERT_EQ(queued.size(), 1u) << "a wake-up sentinel was left";
    EXPECT_EQ(queued[0].text(), "7c6b5a4f3e2d1c0b9a8f7e6d");

    // Without a route (one connection, as before), the cluster refuses the cross-slot script
    // and nothing changes either: the error is the server's, not a silent success.
    Connection direct = cluster.connect(cluster.primaryFor(kDigest + ":LOCKED"));
    EXPECT_THROW(LibraryRelease(direct, nullptr).releaseSidekiqDigest(kDigest, {kJid}), Error);
    EXPECT_EQ(on(cluster, {"EXISTS", kDigest + ":LOCKED"}).integer(), 1);
}

}  // namespace
}  // namespace lockscope::inspect
