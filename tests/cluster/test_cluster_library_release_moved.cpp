// A library's release of a lock whose slot an operator moved after LockScope read it, on a
// real 3-primary cluster: the release goes through the ClusterRouter to the node that serves
// the key now (following MOVED, or ASK with ASKING while the slot migrates), removes the lock
// there, and the library's waiter wakes (Redisson's and Spring's unlock publish, the sidekiq
// digest's QUEUED sentinel). The connection handed in is the old owner's, as a row read before
// the move would give.
#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <string>
#include <thread>

#include "cluster_fixture.h"
#include "formats_test_support.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/library_release.h"

namespace lockscope::inspect {
namespace {

using namespace std::chrono_literals;
using testing::RedisCluster;

Reply onOwner(RedisCluster& cluster, std::size_t node, const std::vector<std::string>& command) {
    std::vector<std::string_view> argv(command.begin(), command.end());
    return cluster.connect(node).command(Connection::Argv(argv));
}

// A subscriber of a channel (cluster PUBLISH reaches every node), on a node of its own.
class Waiter {
  public:
    Waiter(RedisCluster& cluster, std::size_t node, const std::string& channel)
        : c_(Connection::open(cluster.endpoint(node), {})) {
        c_.command({"SUBSCRIBE", channel});
    }
    // The message it was woken with, or "" after 5 s.
    std::string message() {
        if (!c_.waitForReply(5s)) return "";
        Reply m = c_.receive();
        return std::string(m[2].text());
    }

  private:
    Connection c_;
};

// Moves the slot of key to another primary after the router learnt the topology; returns the
// old owner and the new one.
std::pair<std::size_t, std::size_t> moveAway(RedisCluster& cluster, ClusterRouter& router,
                                             const std::string& key) {
    EXPECT_TRUE(router.isCluster());
    const std::size_t from = cluster.primaryFor(key), to = (from + 1) % 3;
    cluster.moveSlot(keyHashSlot(key), to);
    return {from, to};
}

LibraryRelease::KeyRoute routeThrough(ClusterRouter& router) {
    return [&router](std::string_view key, const LibraryRelease::ConnectionAct& act,
                     const LibraryRelease::ConnectionAct& beforeAsk) {
        router.onKey(key, act, beforeAsk);
    };
}

const std::string kRedissonKey = "orders-lock";
const std::vector<HashField> kRedissonHolder{{"6f1c2d4e-8a9b-4c3d-9e8f-7a6b5c4d3e2f:57", "1"}};

void writeRedissonLock(RedisCluster& cluster) {
    const std::size_t node = cluster.primaryFor(kRedissonKey);
    onOwner(cluster, node,
            {"HSET", kRedissonKey, kRedissonHolder[0].field, kRedissonHolder[0].value});
    onOwner(cluster, node, {"PEXPIRE", kRedissonKey, "600000"});
}

TEST(ClusterLibraryReleaseMoved, RedissonReachesTheNewOwnerAndItsUnlockWakesTheWaiter) {
    RedisCluster cluster;
    writeRedissonLock(cluster);
    ClusterRouter router(cluster.endpoint(0), {});
    const auto [from, to] = moveAway(cluster, router, kRedissonKey);
    Waiter waiter(cluster, 3 - from - to, "redisson_lock__channel:{" + kRedissonKey + "}");
    Connection& old = router.connectionTo(cluster.endpoint(from));
    auto result = LibraryRelease(old, nullptr, routeThrough(router))
                      .releaseRedisson(kRedissonKey, kRedissonHolder, false);
    ASSERT_EQ(result.outcome, ActionOutcome::Done) << result.message;
    EXPECT_EQ(onOwner(cluster, to, {"EXISTS", kRedissonKey}).integer(), 0);
    EXPECT_EQ(waiter.message(), "0") << "the Redisson waiter was not told of the unlock";
}

// Redisson's script names the lock, its channel and its queue: while the slot migrates, the
// importing node answers such a script TRYAGAIN (the channel is no key it holds). The release
// waits for the operator's migration to end (here 300 ms later) and reaches the new owner.
TEST(ClusterLibraryReleaseMoved, RedissonDuringTheMigrationWaitsItOutAndReachesTheNewOwner) {
    RedisCluster cluster;
    writeRedissonLock(cluster);
    ClusterRouter router(cluster.endpoint(0), {});
    ASSERT_TRUE(router.isCluster());
    const int slot = keyHashSlot(kRedissonKey);
    const std::size_t from = cluster.primaryFor(kRedissonKey), to = (from + 1) % 3;
    cluster.beginSlotMove(slot, from, to);
    cluster.migrateKeys(slot, from, to);  // on the importing node; the slot still `from`'s
    Waiter waiter(cluster, 3 - from - to, "redisson_lock__channel:{" + kRedissonKey + "}");
    auto finished = std::async(std::launch::async, [&] {
        std::this_thread::sleep_for(300ms);
        cluster.finishSlotMove(slot, to);
    });
    Connection& old = router.connectionTo(cluster.endpoint(from));
    auto result = LibraryRelease(old, nullptr, routeThrough(router))
                      .releaseRedisson(kRedissonKey, kRedissonHolder, false);
    finished.get();
    ASSERT_EQ(result.outcome, ActionOutcome::Done) << result.message;
    EXPECT_EQ(onOwner(cluster, to, {"EXISTS", kRedissonKey}).integer(), 0);
    EXPECT_EQ(waiter.message(), "0");
}

const std::string kSpringKey = "orders-registry:order-42";
const std::string kSpringClient = "0c9e8f7a-6b5d-4c3e-2f1a-0b9c8d7e6f5a";

// Spring's script names the lock alone: while the slot migrates and the lock is already on the
// importing node, the release is sent there after ASKING, its script loaded there first (an
// EVALSHA answered NOSCRIPT would have spent the ASKING).
TEST(ClusterLibraryReleaseMoved, SpringDuringTheMigrationIsSentWithAsking) {
    RedisCluster cluster;
    onOwner(cluster, cluster.primaryFor(kSpringKey),
            {"SET", kSpringKey, kSpringClient, "PX", "600000"});
    ClusterRouter router(cluster.endpoint(0), {});
    ASSERT_TRUE(router.isCluster());
    const int slot = keyHashSlot(kSpringKey);
    const std::size_t from = cluster.primaryFor(kSpringKey), to = (from + 1) % 3;
    cluster.beginSlotMove(slot, from, to);
    cluster.migrateKeys(slot, from, to);
    Waiter waiter(cluster, 3 - from - to, "orders-registry-channel");
    Connection& old = router.connectionTo(cluster.endpoint(from));
    auto result = LibraryRelease(old, nullptr, routeThrough(router))
                      .releaseSpring(kSpringKey, kSpringClient, "orders-registry");
    ASSERT_EQ(result.outcome, ActionOutcome::Done) << result.message;
    Connection importing = cluster.connect(to);
    importing.command({"ASKING"});
    EXPECT_EQ(importing.command({"EXISTS", kSpringKey}).integer(), 0);
    EXPECT_EQ(waiter.message(), kSpringKey);
}

TEST(ClusterLibraryReleaseMoved, SpringReachesTheNewOwnerAndPublishesTheUnlock) {
    RedisCluster cluster;
    const std::string key = kSpringKey, clientId = kSpringClient;
    onOwner(cluster, cluster.primaryFor(key), {"SET", key, clientId, "PX", "600000"});
    ClusterRouter router(cluster.endpoint(0), {});
    const auto [from, to] = moveAway(cluster, router, key);
    Waiter waiter(cluster, 3 - from - to, "orders-registry-channel");
    Connection& old = router.connectionTo(cluster.endpoint(from));
    auto result = LibraryRelease(old, nullptr, routeThrough(router))
                      .releaseSpring(key, clientId, "orders-registry");
    ASSERT_EQ(result.outcome, ActionOutcome::Done) << result.message;
    EXPECT_EQ(onOwner(cluster, to, {"EXISTS", key}).integer(), 0);
    EXPECT_EQ(waiter.message(), key) << "the Spring registry's subscribers were not told";
}

TEST(ClusterLibraryReleaseMoved, SidekiqDigestReachesTheNewOwnersOfItsSlotsAndWakesTheJob) {
    using formats_test::kDigest;
    using formats_test::kJid;
    RedisCluster cluster;
    auto on = [&](const std::vector<std::string>& command) {
        onOwner(cluster, cluster.primaryFor(command.at(1)), command);
    };
    formats_test::writeSidekiqDigest(on, kDigest, kJid);
    on({"DEL", kDigest + ":QUEUED"});  // the queued job was taken: the next one waits
    ClusterRouter router(cluster.endpoint(0), {});
    // LOCKED's slot (compared first) and QUEUED's (the wake-up) both change owner.
    const auto [lockedFrom, lockedTo] = moveAway(cluster, router, kDigest + ":LOCKED");
    const std::size_t queuedFrom = cluster.primaryFor(kDigest + ":QUEUED");
    std::size_t queuedTo = (queuedFrom + 1) % 3;
    if (keyHashSlot(kDigest + ":QUEUED") != keyHashSlot(kDigest + ":LOCKED"))
        cluster.moveSlot(keyHashSlot(kDigest + ":QUEUED"), queuedTo);
    else
        queuedTo = lockedTo;
    ConnectionOptions patient;
    patient.commandTimeout = 15s;
    Connection blocked = Connection::open(cluster.endpoint(queuedTo), patient);
    auto woke = std::async(std::launch::async, [&] {
        return blocked.command({"BLPOP", kDigest + ":QUEUED", "10"});
    });
    std::this_thread::sleep_for(200ms);

    Connection& old = router.connectionTo(cluster.endpoint(lockedFrom));
    auto result =
        LibraryRelease(old, nullptr, routeThrough(router)).releaseSidekiqDigest(kDigest, {kJid});
    ASSERT_EQ(result.outcome, ActionOutcome::Done) << result.message;
    EXPECT_EQ(result.message.find("could not"), std::string::npos) << result.message;
    EXPECT_EQ(onOwner(cluster, lockedTo, {"EXISTS", kDigest + ":LOCKED"}).integer(), 0);
    ASSERT_EQ(woke.wait_for(5s), std::future_status::ready) << "the blocked job never woke";
    Reply popped = woke.get();
    ASSERT_FALSE(popped.isNil());
    EXPECT_EQ(popped[1].text(), "1");
}

}  // namespace
}  // namespace lockscope::inspect
