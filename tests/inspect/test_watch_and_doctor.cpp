#include <gtest/gtest.h>

#include <mutex>
#include <thread>

#include "inspect_helpers.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/lock_shape.h"
#include "lockscope/inspect/lock_watch.h"
#include "lockscope/inspect/resource_groups.h"
#include "lockscope/inspect/server_facts.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;
using lockscope::testing::contains;
using lockscope::testing::findKey;
using lockscope::testing::RedisTest;
using lockscope::testing::scanAll;

namespace {

class PersistentServer : public RedisTest {
  protected:
    LocalRedisServerOptions serverOptions() const override { return {.persistence = true}; }
};

std::uint32_t findingsOf(const std::vector<LockRecord>& records, const std::string& key) {
    const LockRecord* r = findKey(records, key);
    return r ? r->findings : 0xffffffffu;
}

}  // namespace

TEST_F(RedisTest, WatchSeesNewLocksRenewalsHandoffsAndRemovals) {
    Connection c = connect();
    Connection w = connect();
    LockWatch watch(w, {.pollInterval = 50ms, .rescanInterval = 10s});
    c.command({"SET", "lock:{a}", "t1", "PX", "2000"});
    auto first = watch.step();
    EXPECT_TRUE(first.rescanned);
    ASSERT_EQ(first.changed.size(), 1u);
    EXPECT_EQ(first.changed[0].token, "t1");

    c.command({"PEXPIRE", "lock:{a}", "9000"});  // a renewal by the same holder
    auto renewed = watch.step();
    EXPECT_FALSE(renewed.rescanned);
    ASSERT_EQ(renewed.changed.size(), 1u);
    EXPECT_EQ(renewed.changed[0].renewals, 1u);
    EXPECT_EQ(watch.step().changed.size(), 0u);  // only counting down: nothing to redraw

    c.command({"SET", "lock:{a}", "t2", "PX", "5000"});  // another holder
    auto handoff = watch.step();
    ASSERT_EQ(handoff.changed.size(), 1u);
    EXPECT_EQ(handoff.changed[0].handoffs, 1u);
    EXPECT_EQ(handoff.changed[0].renewals, 0u);
    EXPECT_EQ(handoff.changed[0].token, "t2");

    c.command({"DEL", "lock:{a}"});
    auto gone = watch.step();
    EXPECT_EQ(gone.removed, (std::vector<std::string>{"lock:{a}"}));
    EXPECT_EQ(watch.table().size(), 0u);
}

TEST_F(PersistentServer, WatchReconnectsAfterTheServerRestartsMidWatch) {
    Connection c = connect();
    c.command({"SET", "lock:{job}", "tok", "PX", "60000"});
    Connection w = connect({.connectTimeout = 500ms, .commandTimeout = 500ms});
    LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 10s});
    ASSERT_EQ(watch.step().changed.size(), 1u);
    server().restart();
    bool disconnectedSeen = false, back = false;
    for (int i = 0; i < 20 && !back; ++i) {
        auto u = watch.step();
        if (!u.connected) {
            disconnectedSeen = true;
            EXPECT_FALSE(u.error.empty());
            continue;
        }
        back = true;
    }
    EXPECT_TRUE(back);
    (void)disconnectedSeen;  // either way is fine: the first poll may already reconnect
    ASSERT_EQ(watch.table().size(), 1u);
    EXPECT_EQ(watch.table().find("lock:{job}")->token, "tok");
    // A stopped server yields disconnected updates, not exceptions.
    server().stop();
    auto down = watch.step();
    EXPECT_FALSE(down.connected);
    EXPECT_TRUE(contains(down.error, endpoint().display())) << down.error;
    server().start();
    bool again = false;
    for (int i = 0; i < 20 && !again; ++i) again = watch.step().connected;
    EXPECT_TRUE(again);
}

TEST_F(RedisTest, WatchRunLoopStopsOnRequest) {
    Connection w = connect();
    connect().command({"SET", "lock:x", "1", "PX", "9000"});
    LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 60ms});
    std::stop_source stop;
    int updates = 0, rescans = 0;
    std::jthread t([&] {
        watch.run([&](const WatchUpdate& u) { ++updates, rescans += u.rescanned; },
                  stop.get_token());
    });
    std::this_thread::sleep_for(300ms);
    stop.request_stop();
    t.join();
    EXPECT_GE(updates, 5);
    EXPECT_GE(rescans, 2);
    EXPECT_LT(rescans, updates);
    EXPECT_THROW(LockWatch(w, {.pollInterval = 0ms}), InvalidArgumentError);
}

TEST_F(RedisTest, DoctorFindsTheGuidesMistakesOnLiveLocks) {
    auto shared = std::make_shared<Connection>(connect());
    Connection& c = *shared;
    c.command({"SETNX", "lock:{cache:rebuild}",
               "0123456789abcdef0123456789abcdef"});           // crashed before EXPIRE
    c.command({"SET", "lock:report", "1", "NX", "EX", "10"});  // fixed value
    c.command({"SET", "lock:legacy", "0123456789abcdef0123456789abcdef", "PX", "9000"});
    c.command({"INCR", "fence:legacy"});  // other slot
    c.command({"SET", "lock:{slow}", "0123456789abcdef0123456789abcdef", "PX", "7200000"});  // 2 h
    RedisLock good(shared, "fine");
    ASSERT_TRUE(good.acquire());
    auto records = scanAll(c);
    ServerFacts facts = probeServer(c);
    EXPECT_EQ(facts.role, ServerRole::Primary);
    EXPECT_EQ(facts.connectedReplicas, 0);
    EXPECT_EQ(facts.keyspaceEvents, KeyspaceEvents::Disabled);
    Doctor().annotate(records, facts);
    EXPECT_EQ(findingsOf(records, "lock:{cache:rebuild}"), bit(RuleId::NoTtl));
    EXPECT_EQ(findingsOf(records, "lock:report"), bit(RuleId::FixedValue));
    EXPECT_EQ(findingsOf(records, "lock:legacy"), bit(RuleId::CrossSlot));
    EXPECT_EQ(findingsOf(records, "lock:{slow}"), bit(RuleId::TtlHours));
    EXPECT_EQ(findingsOf(records, "lock:{fine}"), 0u);
    EXPECT_EQ(ruleNames(bit(RuleId::NoTtl) | bit(RuleId::CrossSlot)),
              (std::vector<std::string>{"no-ttl", "cross-slot"}));
    for (const auto& r : allRules()) {
        EXPECT_GT(std::string(r.explanation).size(), 100u) << r.name;
        EXPECT_GT(std::string(r.fix).size(), 30u) << r.name;
    }
}

TEST(Doctor, HeldFarLongerThanItsTtlThroughRenewals) {
    LockRecord r;
    r.key = "lock:{job}";
    r.token = "0123456789abcdef0123456789abcdef";
    r.pttlMs = 10000;
    auto now = SteadyClock::now();
    r.observedAt = now;
    r.lastChange = now - 45s;
    r.renewals = 4;
    ServerFacts facts;
    EXPECT_EQ(Doctor().examine(r, facts, now), bit(RuleId::RenewedPastTtl));
    r.lastChange = now - 20s;
    EXPECT_EQ(Doctor().examine(r, facts, now), 0u);
    r.lastChange = now - 45s;
    r.renewals = 0;
    EXPECT_EQ(Doctor().examine(r, facts, now), 0u);
    r.kind = LockKind::NotALock;
    r.pttlMs = -1;
    EXPECT_EQ(Doctor().examine(r, facts, now), 0u);
}

TEST_F(RedisTest, DoctorSeesReplicationOnBothSides) {
    observer().command({"CONFIG", "SET", "repl-diskless-sync-delay", "0"});
    LocalRedisServer replica(
        {.configLines = {"replicaof 127.0.0.1 " + std::to_string(server().port())}});
    Connection c = connect();
    c.command({"SET", "lock:{a}", "0123456789abcdef0123456789abcdef", "PX", "60000"});
    ServerFacts primary;
    for (int i = 0; i < 200 && primary.connectedReplicas < 1; ++i) {
        primary = probeServer(c);
        std::this_thread::sleep_for(20ms);
    }
    ASSERT_EQ(primary.connectedReplicas, 1);
    Connection rc = Connection::open(replica.endpoint(), {.readOnly = true});
    std::vector<LockRecord> onReplica;
    for (int i = 0; i < 200 && onReplica.empty(); ++i) {
        onReplica = scanAll(rc);
        if (onReplica.empty()) std::this_thread::sleep_for(20ms);
    }
    ASSERT_EQ(onReplica.size(), 1u);
    ServerFacts replicaFacts = probeServer(rc);
    EXPECT_EQ(replicaFacts.role, ServerRole::Replica);
    Doctor().annotate(onReplica, replicaFacts);
    EXPECT_EQ(onReplica[0].findings, bit(RuleId::OnReplica));
    // Read there on purpose (--scan-replicas): no advice to read the primary, but the lock
    // lives on a replicated primary, with its failover risk.
    Doctor({.replicaOnPurpose = true}).annotate(onReplica, replicaFacts);
    EXPECT_EQ(onReplica[0].findings, bit(RuleId::ReplicatedPrimary));
    auto onPrimary = scanAll(c);
    Doctor().annotate(onPrimary, primary);
    EXPECT_EQ(onPrimary[0].findings, bit(RuleId::ReplicatedPrimary));
}

TEST_F(RedisTest, KeyspaceEventsAreDetectedNeverChanged) {
    Connection c = connect();
    EXPECT_EQ(probeServer(c).keyspaceEvents, KeyspaceEvents::Disabled);
    c.command({"CONFIG", "SET", "notify-keyspace-events", "Kg$x"});
    auto facts = probeServer(c);
    EXPECT_EQ(facts.keyspaceEvents, KeyspaceEvents::Enabled);
    EXPECT_TRUE(keyspaceEventsCover("KEA"));
    EXPECT_FALSE(keyspaceEventsCover("Kx"));
    EXPECT_FALSE(keyspaceEventsCover("A"));
    c.command({"CONFIG", "SET", "notify-keyspace-events", ""});
    LockWatch watch(c);
    watch.step();
    EXPECT_EQ(watch.server().keyspaceEvents, KeyspaceEvents::Disabled);
    EXPECT_EQ(c.command({"CONFIG", "GET", "notify-keyspace-events"})[1].text(), "");
}

TEST(ResourceGroups, SameResourceOnSeveralInstances) {
    auto a = std::make_shared<const std::string>("redis://a:1");
    auto b = std::make_shared<const std::string>("redis://b:1");
    auto make = [](const std::shared_ptr<const std::string>& inst, std::string key,
                   std::string token, std::uint16_t off, std::uint16_t len) {
        LockRecord r;
        r.instance = inst;
        r.key = std::move(key);
        r.token = std::move(token);
        r.resourceOffset = off;
        r.resourceLength = len;
        return r;
    };
    std::vector<LockRecord> records{make(a, "lock:{x}", "t", 6, 1), make(b, "lock:{x}", "t", 6, 1),
                                    make(a, "lock:{y}", "t", 6, 1), make(b, "lock:{y}", "u", 6, 1)};
    records.push_back(make(a, "lock:{x}", "", 6, 1));
    records.back().kind = LockKind::NotALock;
    auto groups = groupByResource(records);
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[0].resource, "x");
    EXPECT_EQ(groups[0].records, (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(groups[0].instances, 2u);
    EXPECT_TRUE(groups[0].sameHolder);
    EXPECT_FALSE(groups[1].sameHolder);
}

TEST(LockRecordValue, CountsDownFromTheObservation) {
    LockRecord r;
    r.pttlMs = 1000;
    r.observedAt = SteadyClock::now();
    EXPECT_EQ(r.remainingAt(r.observedAt + 400ms), 600);
    EXPECT_EQ(r.remainingAt(r.observedAt + 5s), 0);
    EXPECT_EQ(r.remainingAt(r.observedAt - 5s), 1000);
    r.pttlMs = -1;
    EXPECT_EQ(r.remainingAt(r.observedAt + 5s), -1);
    // Compact: the fixed part of a record stays well under the 300-byte budget.
    EXPECT_LE(sizeof(LockRecord), 300u);
}

TEST_F(RedisTest, WatchFollowsKeyspaceEventsWhenTheServerPublishesThem) {
    Connection admin = connect();
    // The operator enabled them on this server; LockScope only detects and follows.
    admin.command({"CONFIG", "SET", "notify-keyspace-events", "Kg$x"});
    Connection w = connect({.readOnly = true});
    // Polls and rescans far apart: only the events can bring the changes in time.
    LockWatch watch(w, {.pollInterval = 10s, .rescanInterval = 60s});
    EXPECT_TRUE(watch.step().connected);
    EXPECT_TRUE(watch.followingEvents());
    EXPECT_EQ(watch.server().keyspaceEvents, KeyspaceEvents::Enabled);
    admin.command({"SET", "lock:{new}", "tok", "PX", "60000"});
    admin.command({"SET", "other:key", "not watched"});
    auto start = SteadyClock::now();
    WatchUpdate added;
    while (added.changed.empty() && SteadyClock::now() - start < 2s)
        added = watch.waitForEvents(100ms);
    ASSERT_EQ(added.changed.size(), 1u);
    EXPECT_EQ(added.changed[0].key, "lock:{new}");
    EXPECT_LT(SteadyClock::now() - start, 1s);
    admin.command({"DEL", "lock:{new}"});
    WatchUpdate removed;
    while (removed.removed.empty() && SteadyClock::now() - start < 3s)
        removed = watch.waitForEvents(100ms);
    EXPECT_EQ(removed.removed, (std::vector<std::string>{"lock:{new}"}));
    // Without notifications, waiting just waits.
    admin.command({"CONFIG", "SET", "notify-keyspace-events", ""});
    Connection w2 = connect();
    LockWatch plain(w2, {.pollInterval = 10s});
    plain.step();
    EXPECT_FALSE(plain.followingEvents());
    auto t0 = SteadyClock::now();
    EXPECT_TRUE(plain.waitForEvents(50ms).changed.empty());
    EXPECT_GE(SteadyClock::now() - t0, 45ms);
}

TEST_F(RedisTest, WatchRunDeliversEventsBetweenPolls) {
    Connection admin = connect();
    admin.command({"CONFIG", "SET", "notify-keyspace-events", "KA"});
    Connection w = connect();
    LockWatch watch(w, {.pollInterval = 10s, .rescanInterval = 60s});
    std::mutex m;
    std::vector<std::string> seen;
    std::stop_source stop;
    std::jthread t([&] {
        watch.run(
            [&](const WatchUpdate& u) {
                std::lock_guard lock(m);
                for (const auto& r : u.changed) seen.push_back(r.key);
            },
            stop.get_token());
    });
    std::this_thread::sleep_for(200ms);
    admin.command({"SET", "lock:{late}", "tok", "PX", "60000"});
    auto start = SteadyClock::now();
    bool found = false;
    while (!found && SteadyClock::now() - start < 2s) {
        std::this_thread::sleep_for(20ms);
        std::lock_guard lock(m);
        found = std::find(seen.begin(), seen.end(), "lock:{late}") != seen.end();
    }
    stop.request_stop();
    t.join();
    EXPECT_TRUE(found);
}

TEST_F(RedisTest, RescanCanStreamItsBatchesToAView) {
    Connection c = connect();
    std::vector<std::vector<std::string>> load;
    for (int i = 0; i < 500; ++i) load.push_back({"SET", "lock:{s" + std::to_string(i) + "}", "t"});
    c.pipeline(load);
    WatchOptions options;
    options.scan.count = 50;
    std::size_t streamed = 0, batches = 0, withFinding = 0;
    double lastFraction = -1;
    options.onRescanBatch = [&](std::vector<LockRecord>& batch, const ScanProgress& progress) {
        ++batches;
        streamed += batch.size();
        for (const auto& r : batch) withFinding += (r.findings & bit(RuleId::NoTtl)) != 0;
        EXPECT_GE(progress.fraction, lastFraction);
        lastFraction = progress.fraction;
    };
    Connection w = connect();
    LockWatch watch(w, options);
    auto update = watch.step();
    EXPECT_TRUE(update.rescanned);
    EXPECT_TRUE(update.changed.empty());  // handed to the view batch by batch instead
    EXPECT_EQ(streamed, 500u);
    EXPECT_EQ(withFinding, 500u);  // judged before handing over
    EXPECT_GT(batches, 3u);
    watch.requestRescan();
    lastFraction = -1;  // a new scan starts over
    EXPECT_TRUE(watch.step().rescanned);
    EXPECT_EQ(streamed, 500u);  // nothing changed, so nothing streamed again
}

TEST(ServerFactsInfo, RunIdIsReadFromTheInfoText) {
    EXPECT_EQ(runIdFromInfo("# Server\r\nredis_version:7.0.15\r\nrun_id:abc123\r\ntcp_port:1\r\n"),
              "abc123");
    EXPECT_EQ(runIdFromInfo("run_id:last"), "last");
    EXPECT_EQ(runIdFromInfo(""), "");
    EXPECT_EQ(runIdFromInfo("# Server\r\nredis_version:7\r\n"), "");
    EXPECT_EQ(runIdFromInfo(std::string("\0\xff\nrun_id\n", 10)), "");
}

// A healthy watchdog-renewed lock was shown with the same red as a lock without TTL. Renewal
// past the TTL is information; only a holder renewing past the user's threshold is a warning,
// and neither is a problem.
TEST(Doctor, RenewalIsInformationUntilTheUsersThreshold) {
    LockRecord r;
    r.key = "lock:{job}";
    r.token = "0123456789abcdef0123456789abcdef";
    r.pttlMs = 30000;
    auto now = SteadyClock::now();
    r.observedAt = now;
    r.lastChange = now - 2min;
    r.renewals = 12;
    ServerFacts facts;
    Doctor doctor({.heldTooLong = 10min});
    std::uint32_t healthy = doctor.examine(r, facts, now);
    EXPECT_EQ(healthy, bit(RuleId::RenewedPastTtl));
    EXPECT_EQ(worstSeverity(healthy), Severity::Info);
    EXPECT_STREQ(toString(worstSeverity(healthy)), "information");

    r.lastChange = now - 11min;
    std::uint32_t stuck = doctor.examine(r, facts, now);
    EXPECT_EQ(stuck, bit(RuleId::RenewedPastTtl) | bit(RuleId::HeldTooLong));
    EXPECT_EQ(worstSeverity(stuck), Severity::Warning);

    r.pttlMs = -1;
    EXPECT_EQ(worstSeverity(doctor.examine(r, facts, now)), Severity::Critical);
    EXPECT_EQ(worstSeverity(0), Severity::Info);
}

TEST(Doctor, NoTtlCauseDependsOnTheLibrary) {
    std::string redisPy = noTtlCause(LockKind::RedisPy);
    EXPECT_NE(redisPy.find("timeout=None"), std::string::npos);
    EXPECT_EQ(redisPy.find("SETNX"), std::string::npos);
    std::string redlock = noTtlCause(LockKind::NodeRedlock);
    EXPECT_NE(redlock.find("PERSIST"), std::string::npos);
    EXPECT_EQ(redlock.find("SETNX followed"), std::string::npos);
    EXPECT_NE(std::string(noTtlCause(LockKind::FixedValue)).find("SETNX"), std::string::npos);
    EXPECT_NE(std::string(noTtlCause(LockKind::Unknown)).find("PERSIST"), std::string::npos);
    // The rule's own text no longer blames one cause for every library.
    EXPECT_EQ(std::string(rule(RuleId::NoTtl).explanation).find("The usual cause is SETNX"),
              std::string::npos);
}

// The command log filled with WRONGTYPE errors: every poll sent GET to Redisson hashes (and
// HLEN/HSCAN to lists). Each key is now polled with the commands for its type.
TEST_F(RedisTest, PollingReadsEachKeyWithTheCommandsForItsType) {
    Connection c = connect();
    c.command({"HSET", "lock:{h}", "8743c9c0-0795-4907-87fd-6c719a6b4586:1", "1"});
    c.command({"PEXPIRE", "lock:{h}", "30000"});
    c.command({"SET", "lock:{s}", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "PX", "30000"});
    c.command({"RPUSH", "lock:{l}", "a"});
    Connection w = connect();
    std::vector<std::string> log;
    w.setObserver(
        [&](const CommandEvent& e) { log.push_back(e.command + " -> " + e.replySummary); });
    // The list is no lock: kept here (includeNonLocks) to check how a non-lock type is polled.
    LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 10s, .includeNonLocks = true});
    ASSERT_EQ(watch.step().changed.size(), 3u);
    log.clear();
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(watch.step().connected);
    std::string all;
    for (const auto& line : log) all += line + "\n";
    EXPECT_EQ(all.find("WRONGTYPE"), std::string::npos) << all;
    EXPECT_NE(all.find("HSCAN lock:{h}"), std::string::npos) << all;
    EXPECT_EQ(all.find("GET lock:{h}"), std::string::npos) << all;
    EXPECT_EQ(all.find("HSCAN lock:{l}"), std::string::npos) << all;
    ASSERT_NE(watch.table().find("lock:{h}"), nullptr);
    EXPECT_EQ(watch.table().find("lock:{h}")->fields.size(), 1u);

    // A key that changes type between polls is read again the full way, not lost.
    c.command({"DEL", "lock:{h}"});
    c.command({"SET", "lock:{h}", "now-a-string", "PX", "30000"});
    auto u = watch.step();
    ASSERT_NE(watch.table().find("lock:{h}"), nullptr);
    EXPECT_EQ(watch.table().find("lock:{h}")->type, ValueType::String);
    EXPECT_EQ(watch.table().find("lock:{h}")->token, "now-a-string");
    EXPECT_TRUE(std::find(u.removed.begin(), u.removed.end(), "lock:{h}") == u.removed.end());
}

// A pattern of "*" over ordinary keys flooded the table with "unknown" no-TTL locks, each
// polled every interval. Now only lock-shaped keys enter the table (unless asked for).
TEST_F(RedisTest, OrdinaryKeysStayOutOfTheWatchUnlessAskedFor) {
    Connection c = connect();
    for (int i = 0; i < 200; ++i) {
        c.command({"SET", "user:" + std::to_string(i) + ":name", "Ada Lovelace"});
        c.command({"SET", "counter:" + std::to_string(i), "1"});
    }
    c.command({"HSET", "profile:1", "name", "x"});
    c.command({"RPUSH", "queue:jobs", "a"});
    c.command({"SET", "lock:{job}", "0f1e2d3c4b5a69788796a5b4c3d2e1f0", "PX", "30000"});
    c.command(
        {"SET", "report-job", "a3b1c0d2e4f611ee8a1b0242ac120002", "PX", "30000"});  // redis-py
    c.command({"SET", "session:abc", "token-value-42", "EX", "600"});  // token-like with a TTL

    Connection w = connect();
    std::uint64_t commands = 0;
    w.setObserver([&](const CommandEvent&) { ++commands; });
    WatchOptions options{.pollInterval = 20ms, .rescanInterval = 10s};
    options.scan.patterns = {"*"};
    LockWatch watch(w, options);
    watch.step();
    std::vector<std::string> keys = watch.table().keys();
    std::sort(keys.begin(), keys.end());
    EXPECT_EQ(keys, (std::vector<std::string>{"lock:{job}", "report-job", "session:abc"}));
    EXPECT_EQ(watch.nonLockKeys(), 402u);
    commands = 0;
    watch.step();  // a poll reads the three locks only
    EXPECT_LT(commands, 20u) << commands;

    options.includeNonLocks = true;
    Connection all = connect();
    LockWatch everything(all, options);
    everything.step();
    EXPECT_EQ(everything.table().size(), 405u);
}

TEST(LockShape, WhatCountsAsALock) {
    LockRecord r;
    r.key = "counter:1";
    r.token = "1";
    r.kind = LockKind::FixedValue;
    EXPECT_FALSE(isLockShaped(r));  // an ordinary flag
    r.key = "LOCK:report";
    EXPECT_TRUE(isLockShaped(r));  // the broken fixed-value lock
    r.key = "name";
    r.kind = LockKind::Unknown;
    r.token = "Ada Lovelace";
    r.pttlMs = 5000;
    EXPECT_FALSE(isLockShaped(r));  // spaces: not a token
    r.token = std::string("\x00\x01", 2);
    EXPECT_FALSE(isLockShaped(r));
    r.token = std::string(300, 'a');
    EXPECT_FALSE(isLockShaped(r));
    r.token = "{\"user\":42}";
    EXPECT_FALSE(isLockShaped(r));  // a cached JSON document with a TTL
    r.token = "tok-123";
    EXPECT_TRUE(isLockShaped(r));
    r.pttlMs = -1;
    EXPECT_FALSE(isLockShaped(r));
    r.kind = LockKind::NotALock;
    r.key = "lock:queue";
    EXPECT_FALSE(isLockShaped(r));
    r.kind = LockKind::RedissonLock;
    r.key = "anything";
    EXPECT_TRUE(isLockShaped(r));
}
