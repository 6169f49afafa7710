// Every format written into a real redis-server, then found by a real scan: with the real
// client where one runs here (redis-py 4.3.4 under /usr/bin/python3, for redis-py itself and
// for celery-once, which takes a redis-py Lock), otherwise with the exact commands the
// library's source sends (file cited at each block).

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <memory>
#include <sstream>

#include "formats_test_support.h"
#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/inspect/formats/lock_families.h"
#include "lockscope/inspect/scanner.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::inspect;
using lockscope::testing::RedisTest;

namespace {

const LockRecord& find(const std::vector<LockRecord>& records, const std::string& key) {
    for (const auto& r : records)
        if (r.key == key) return r;
    throw std::runtime_error("not found: " + key);
}

class FormatsOnServer : public RedisTest {};

}  // namespace

TEST_F(FormatsOnServer, RedisPyAndCeleryOnceLocksTakenByRedisPyDecodeTimeAndNode) {
    // celery_once/backends/redis.py raise_or_lock(): Lock(self.redis, key, timeout=...).acquire(),
    // key from celery_once/helpers.py queue_once_key(): "qo_" + name + "_<k>-<v>" sorted.
    std::string out = formats_test::runPython(endpoint().port, R"py(
import datetime, uuid
for name in ("report", "qo_tasks.add_a-1_b-2"):
    lock = r.lock(name, timeout=60)
    assert lock.acquire(blocking=False)
    token = lock.local.token.decode()
    u = uuid.UUID(hex=token)
    seconds = (u.time - 0x01b21dd213814000) // 10000000
    print(name, token, seconds, "%012x" % u.node)
)py");
    std::istringstream lines(out);
    Connection c = connect();
    auto records = formats_test::scanEverything(c);
    for (int i = 0; i < 2; ++i) {
        std::string key, token, node;
        long long seconds = 0;
        ASSERT_TRUE(lines >> key >> token >> seconds >> node) << out;
        const auto& r = find(records, key);
        EXPECT_EQ(r.kind, i == 0 ? LockKind::RedisPy : LockKind::CeleryOnce);
        EXPECT_EQ(r.token, token);
        auto facts = decodeHolder(r);
        ASSERT_TRUE(facts.since);
        EXPECT_EQ(std::chrono::duration_cast<std::chrono::seconds>(facts.since->time_since_epoch())
                      .count(),
                  seconds);
        std::string mac;
        for (std::size_t j = 0; j < 12; j += 2) mac += (j ? ":" : "") + node.substr(j, 2);
        EXPECT_EQ(facts.host, mac);
    }
}

TEST_F(FormatsOnServer, EveryLibraryKeyIsListedWithItsKindAndFacts) {
    Connection c = connect();
    formats_test::writeEveryFormat(c);
    auto records = formats_test::scanEverything(c);
    recogniseSpringRegistries(records);
    attachRedissonFences(records);
    const std::string d = formats_test::kDigest;
    std::vector<std::pair<std::string, LockKind>> expected{
        {"job-lock:default:nightly-report", LockKind::ShedLock},
        {"orders:order-17", LockKind::SpringIntegration},
        {"orders:order-18", LockKind::SpringIntegration},
        {"laravel_database_laravel_cache_laravel_unique_job:App\\Jobs\\SyncOrders:42",
         LockKind::Laravel},
        {"laravel_database_laravel-queue-overlap:App\\Jobs\\Import:tenant-9", LockKind::Laravel},
        {d, LockKind::SidekiqUniqueJobs},
        {d + ":LOCKED", LockKind::SidekiqUniqueJobs},
        {d + ":INFO", LockKind::SidekiqUniqueJobs},
        {d + ":QUEUED", LockKind::SidekiqUniqueJobs},
        {"uniquejobs:digests", LockKind::NotALock},
        {"redlock-orders/17", LockKind::RedlockNet},
        {"redlock:printer", LockKind::Pottery},
        {"qo_tasks.mail_to-ann", LockKind::CeleryOnce},
        {"activejob_uniqueness:sync_job:0cc175b9c0f1b6a831c399e269772661",
         LockKind::ActiveJobUniqueness},
        {"activejob_uniqueness:sync_job:0cc175b9c0f1b6a831c399e269772661:runtime",
         LockKind::ActiveJobUniqueness},
        {"stock", LockKind::RedissonReadWriteLock},
        {"{stock}:" + formats_test::kClientA + ":57:rwlock_timeout:1", LockKind::RedissonRwTimeout},
        {"ledger", LockKind::RedissonLock},
        {"redisson_lock_queue:{ledger}", LockKind::RedissonFairQueue},
        {"redisson_lock_timeout:{ledger}", LockKind::RedissonFairTimeout},
        {"redisson_lock_token:{ledger}", LockKind::RedissonFenceToken},
    };
    for (const auto& [key, kind] : expected)
        EXPECT_EQ(toString(find(records, key).kind), std::string(toString(kind))) << key;

    auto shed = decodeHolder(find(records, "job-lock:default:nightly-report"));
    EXPECT_EQ(shed.host, "build-7");
    EXPECT_EQ(find(records, "job-lock:default:nightly-report").resource(), "nightly-report");
    EXPECT_EQ(decodeHolder(find(records, "orders:order-17")).clientId, formats_test::kClientB);
    auto rw = decodeHolder(find(records, "stock"));
    EXPECT_EQ(rw.mode, "read");
    EXPECT_EQ(rw.holders, 2u);
    // The fenced lock's counter is the lock's fence.
    EXPECT_EQ(find(records, "ledger").fence, 7);
    auto ledger = decodeHolder(find(records, "ledger"));
    EXPECT_EQ(ledger.clientId, formats_test::kClientA);
    EXPECT_EQ(ledger.threadId, 1u);

    auto digests = groupSidekiqDigests(records);
    ASSERT_EQ(digests.size(), 1u);
    EXPECT_EQ(digests[0].digest, d);
    EXPECT_EQ(digests[0].records.size(), 4u);
    EXPECT_EQ(digests[0].jobs, std::vector<std::string>{formats_test::kJid});
    EXPECT_GT(digests[0].pttlMs, 0);

    auto clients = locksPerRedissonClient(records);
    ASSERT_FALSE(clients.empty());
    EXPECT_EQ(clients[0].clientId, formats_test::kClientA);
    EXPECT_EQ(clients[0].locks, 2u);  // ledger and stock
}
