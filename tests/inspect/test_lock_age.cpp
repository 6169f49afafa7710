#include <gtest/gtest.h>

#include "lockscope/inspect/lock_age.h"
#include "lockscope/inspect/lock_table.h"

using namespace lockscope::inspect;
using namespace std::chrono_literals;

namespace {

WallClock::time_point utc(std::int64_t unixSeconds) {
    return WallClock::time_point(std::chrono::seconds(unixSeconds));
}

LockRecord stringLock(const std::string& token, std::int64_t pttlMs, SteadyClock::time_point at) {
    LockRecord r;
    r.key = "lock:x";
    r.token = token;
    r.pttlMs = pttlMs;
    r.observedAt = r.firstSeen = r.lastChange = at;
    return r;
}

}  // namespace

TEST(LockAge, Uuid1TokensCarryTheirAcquireTime) {
    // uuid.uuid1() made at 2024-01-02T03:04:05Z (1704164645): time_low 0x8f5b6a80...
    // computed as ((1704164645 * 10^7) + 0x01B21DD213814000) in 100 ns ticks.
    const std::uint64_t ticks = 1704164645ULL * 10'000'000ULL + 0x01B21DD213814000ULL;
    char hex[33];
    std::snprintf(hex, sizeof hex, "%08llx%04llx1%03llx8a1b0242ac120002",
                  (unsigned long long)(ticks & 0xffffffffULL),
                  (unsigned long long)((ticks >> 32) & 0xffffULL),
                  (unsigned long long)((ticks >> 48) & 0x0fffULL));
    auto t = acquireTimeInToken(hex);
    ASSERT_TRUE(t.has_value()) << hex;
    EXPECT_EQ(std::chrono::duration_cast<std::chrono::seconds>(t->time_since_epoch()).count(),
              1704164645);
    std::string dashed = std::string(hex, 8) + "-" + std::string(hex + 8, 4) + "-" +
                         std::string(hex + 12, 4) + "-" + std::string(hex + 16, 4) + "-" +
                         std::string(hex + 20);
    EXPECT_EQ(acquireTimeInToken(dashed), t);

    auto now = SteadyClock::now();
    LockRecord redisPy = stringLock(hex, 5000, now);
    redisPy.kind = LockKind::RedisPy;
    LockAge age = estimateAge(redisPy, now, utc(1704164645 + 600));
    EXPECT_EQ(age.source, AgeSource::TokenTimestamp);
    EXPECT_EQ(age.ms, 600'000);
    // The same 32 hex as a random token of another client (the guide's, node-redlock's):
    // one in sixteen has the version nibble 1, and its "time" means nothing.
    LockRecord random = redisPy;
    random.kind = LockKind::Guide;
    EXPECT_EQ(estimateAge(random, now, utc(1704164645 + 600)).source, AgeSource::Unknown);
}

TEST(LockAge, ShedLockValuesCarryTheirAcquireTime) {
    auto t = acquireTimeInToken("ADDED:2024-01-02T03:04:05.250Z@build-host");
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(std::chrono::duration_cast<std::chrono::milliseconds>(t->time_since_epoch()).count(),
              1704164645250);
    auto offset = acquireTimeInToken("ADDED:2024-01-02T05:04:05+02:00@host:uuid");
    ASSERT_TRUE(offset.has_value());
    EXPECT_EQ(std::chrono::duration_cast<std::chrono::seconds>(offset->time_since_epoch()).count(),
              1704164645);
}

TEST(LockAge, TokensWithoutATimeAreNotGuessed) {
    for (std::string_view bad :
         {"", "1", "holder-a", "0123456789abcdef0123456789abcdef",  // version nibble 4? no: 8
          "c0ffee00c0ffee004c0ffee0c0ffee00",                       // uuid4-ish: nibble 4
          "zzzzzzzzzzzz1zzzzzzzzzzzzzzzzzzz", "ADDED:", "ADDED:2024-13-02T03:04:05Z@h",
          "ADDED:2024-01-02T03:04:05@h",  // no zone
          "ADDED:2024-01-02T03:04:05Z", "ADDED:\xff\xfe-01-02T03:04:05Z@h"}) {
        EXPECT_FALSE(acquireTimeInToken(bad).has_value()) << bad;
    }
    std::string huge(1 << 20, 'a');
    EXPECT_FALSE(acquireTimeInToken(huge).has_value());
}

TEST(LockAge, LeaseSeenMinusTheFirstTtlIsALowerBound) {
    // A node-redlock lock with a 30 s lease, first seen with 9 s left: unknown until the
    // lease is seen (a renewal back to 30 s), then at least 21 s plus the time since.
    auto t0 = SteadyClock::now();
    LockTable table;
    table.observe(stringLock("0f1e2d3c4b5a69788796a5b4c3d2e1f0", 9000, t0));
    const LockRecord* r = table.find("lock:x");
    EXPECT_EQ(estimateAge(*r, t0, WallClock::now()).source, AgeSource::Unknown);

    table.observe(stringLock("0f1e2d3c4b5a69788796a5b4c3d2e1f0", 30000, t0 + 5s));
    r = table.find("lock:x");
    EXPECT_EQ(r->renewals, 1u);
    LockAge age = estimateAge(*r, t0 + 6s, WallClock::now());
    EXPECT_EQ(age.source, AgeSource::LeaseMinusTtl);
    EXPECT_EQ(age.ms, 21000 + 6000);

    // Another holder takes it: its acquire was seen, the age counts from then.
    table.observe(stringLock("another-holder-token-000000000000", 30000, t0 + 40s));
    r = table.find("lock:x");
    age = estimateAge(*r, t0 + 43s, WallClock::now());
    EXPECT_EQ(age.source, AgeSource::AcquireSeen);
    EXPECT_EQ(age.ms, 3000);
}

TEST(LockAge, ATokenTimeInTheFutureIsIgnored) {
    auto now = SteadyClock::now();
    LockAge age =
        estimateAge(stringLock("ADDED:2099-01-02T03:04:05Z@h", 5000, now), now, utc(1704164645));
    EXPECT_EQ(age.source, AgeSource::Unknown);
}
