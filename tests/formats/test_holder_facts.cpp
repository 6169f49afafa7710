#include <gtest/gtest.h>

#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/inspect/formats/lock_families.h"
#include "lockscope/inspect/record_json.h"

using namespace lockscope::inspect;
using namespace std::chrono;

namespace {
LockRecord record(std::string key, LockKind kind, std::string token,
                  std::vector<HashField> fields = {}) {
    LockRecord r;
    r.key = std::move(key);
    r.kind = kind;
    r.token = std::move(token);
    r.fields = std::move(fields);
    r.type = r.fields.empty() ? ValueType::String : ValueType::Hash;
    return r;
}
const std::string kClientA = "6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b";
const std::string kClientB = "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9";
}  // namespace

TEST(HolderFacts, Uuid1TimeAndNodeMatchPythonsUuidModule) {
    // uuid.UUID("a8098c1a-f86e-11da-bd1a-00112444be1e"):
    // node 00:11:24:44:be:1e; 2006-06-10T10:48:31.013993Z (printed by /usr/bin/python3).
    auto t = uuid1Time("a8098c1af86e11dabd1a00112444be1e");
    ASSERT_TRUE(t);
    EXPECT_EQ(formatIsoInstant(*t), "2006-06-10T10:48:31Z");
    EXPECT_EQ(duration_cast<microseconds>(t->time_since_epoch()).count() % 1000000, 13993);
    EXPECT_EQ(uuid1Node("a8098c1af86e11dabd1a00112444be1e"), "00:11:24:44:be:1e");
    EXPECT_FALSE(uuid1Time("a8098c1af86e41dabd1a00112444be1e"));  // version 4
    EXPECT_EQ(uuid1Node("short"), "");
}

TEST(HolderFacts, ShedLockTimeAndHostWithAndWithoutTheUuid) {
    auto f = decodeHolder(record("job-lock:default:nightly", LockKind::ShedLock,
                                 "ADDED:2026-12-01T00:35:31.006Z@build-7"));
    ASSERT_TRUE(f.since);
    EXPECT_EQ(formatIsoInstant(*f.since), "2026-12-01T00:35:31Z");
    EXPECT_EQ(f.host, "build-7");
    f = decodeHolder(record("job-lock:default:nightly", LockKind::ShedLock,
                            "ADDED:2026-12-01T00:35:31Z@worker.example:" + kClientA));
    EXPECT_EQ(f.host, "worker.example");
    EXPECT_EQ(describeHolder(f), "since 2026-12-01T00:35:31Z on worker.example");
    // A garbled time keeps the host and drops the time.
    f = decodeHolder(
        record("job-lock:default:x", LockKind::ShedLock, "ADDED:2026-13-01T00:00:00Z@h"));
    EXPECT_FALSE(f.since);
    EXPECT_EQ(f.host, "h");
    for (auto bad :
         {"", "Z", "2026-12-01T00:35:31", "2026-12-01T24:00:00Z", "2026-02-30T00:00:00Z",
          "2026-12-01T00:35:31.Z", "2026-12-01T00:35:31.12345678901Z", "+026-12-01T00:35:31Z"})
        EXPECT_FALSE(parseIsoInstant(bad)) << bad;
}

TEST(HolderFacts, RedissonClientAndThreadAndReadWriteMode) {
    auto f = decodeHolder(record("orders", LockKind::RedissonLock, "", {{kClientA + ":57", "2"}}));
    EXPECT_EQ(f.clientId, kClientA);
    EXPECT_EQ(f.threadId, 57u);
    f = decodeHolder(record("stock", LockKind::RedissonReadWriteLock, "",
                            {{"mode", "read"}, {kClientA + ":57", "1"}, {kClientB + ":9", "1"}}));
    EXPECT_EQ(f.mode, "read");
    EXPECT_EQ(f.holders, 2u);
    EXPECT_EQ(describeHolder(f), "read client " + kClientA + " thread 57 (2 holders)");
    f = decodeHolder(record("stock", LockKind::RedissonReadWriteLock, "",
                            {{"mode", "write"}, {kClientB + ":9:write", "1"}}));
    EXPECT_EQ(f.mode, "write");
    EXPECT_EQ(f.clientId, kClientB);
    EXPECT_EQ(f.threadId, 9u);
}

TEST(HolderFacts, LocksPerRedissonClientShowsTheStuckOne) {
    std::vector<LockRecord> records;
    for (int i = 0; i < 5; ++i)
        records.push_back(record("job-" + std::to_string(i), LockKind::RedissonLock, "",
                                 {{kClientA + ":" + std::to_string(40 + i), "1"}}));
    records.push_back(record("other", LockKind::RedissonLock, "", {{kClientB + ":1", "1"}}));
    records.push_back(record("stock", LockKind::RedissonReadWriteLock, "",
                             {{"mode", "read"}, {kClientA + ":1", "1"}, {kClientA + ":2", "1"}}));
    auto counts = locksPerRedissonClient(records);
    ASSERT_EQ(counts.size(), 2u);
    EXPECT_EQ(counts[0].clientId, kClientA);
    EXPECT_EQ(counts[0].locks, 6u);  // two threads of one client on "stock" count once
    EXPECT_EQ(counts[1].locks, 1u);
}

TEST(HolderFacts, SpringRegistryIsRecognisedByItsSharedUuid) {
    std::vector<LockRecord> records{
        record("orders:order-17", LockKind::Uuid, kClientA),
        record("orders:order-18", LockKind::Uuid, kClientA),
        record("orders:order-19", LockKind::Uuid, kClientB),  // another registry instance, alone
        record("invoices:7", LockKind::Uuid, kClientA),       // another registry key
        record("job", LockKind::Uuid, kClientA),
    };
    EXPECT_EQ(recogniseSpringRegistries(records), 2u);
    EXPECT_EQ(records[0].kind, LockKind::SpringIntegration);
    EXPECT_EQ(records[1].kind, LockKind::SpringIntegration);
    EXPECT_EQ(records[2].kind, LockKind::Uuid);
    EXPECT_EQ(records[3].kind, LockKind::Uuid);
    EXPECT_EQ(records[4].kind, LockKind::Uuid);
    EXPECT_EQ(decodeHolder(records[0]).clientId, kClientA);
    EXPECT_EQ(springRegistryKey("orders:order-17"), "orders");
}

TEST(HolderFacts, JsonLinesCarryTheDecodedHolder) {
    auto shed = record("job-lock:default:nightly", LockKind::ShedLock,
                       "ADDED:2026-12-01T00:35:31.006Z@build-7");
    std::string line = toJsonLine(shed, SteadyClock::now());
    EXPECT_NE(line.find(R"("kind":"shedlock")"), std::string::npos) << line;
    EXPECT_NE(line.find(R"("holder":"since 2026-12-01T00:35:31Z on build-7")"), std::string::npos)
        << line;
    auto plain = record("lock:{a}", LockKind::Guide, std::string(32, 'a'));
    EXPECT_EQ(toJsonLine(plain, SteadyClock::now()).find("holder"), std::string::npos);
}
