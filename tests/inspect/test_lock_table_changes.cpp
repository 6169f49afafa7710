// The lock table's change counts (issue 37 item 7): the exporter adds up the holder changes
// and renewals its watches' tables merged, by kind, instead of keeping a record of its own per
// lock to compare censuses. A handoff counts once, a renewal once, a plain re-read or a
// countdown not at all, a new key not at all; the counts travel with a moved or copied table.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <utility>

#include "lockscope/inspect/lock_table.h"

using namespace lockscope::inspect;
using namespace std::chrono_literals;

namespace {

LockRecord lockAt(const std::string& key, const std::string& token, std::int64_t pttlMs,
                  SteadyClock::time_point at, LockKind kind = LockKind::Guide) {
    LockRecord r;
    r.key = key;
    r.token = token;
    r.pttlMs = pttlMs;
    r.kind = kind;
    r.observedAt = r.firstSeen = r.lastChange = at;
    return r;
}

std::uint64_t handoffs(const LockTable& t, LockKind k) {
    return t.changeCounts().handoffs[static_cast<std::size_t>(k)];
}
std::uint64_t renewals(const LockTable& t, LockKind k) {
    return t.changeCounts().renewals[static_cast<std::size_t>(k)];
}

}  // namespace

TEST(LockTableChanges, AHandoffAndARenewalAreCountedOnceByKind) {
    const auto t0 = SteadyClock::now();
    LockTable table;
    table.observe(lockAt("lock:{a}", "tok-1", 20'000, t0));
    table.observe(lockAt("lock:{b}", "tok-2", 20'000, t0));
    table.observe(lockAt("redlock:c", "r-1", 20'000, t0, LockKind::RedlockNet));
    EXPECT_EQ(handoffs(table, LockKind::Guide), 0u) << "a new key is no handoff";
    // 1 s later: a counted-down re-read changes nothing; a takes a new holder; b is renewed.
    table.observe(lockAt("lock:{a}", "tok-3", 20'000, t0 + 1s));
    table.observe(lockAt("lock:{b}", "tok-2", 60'000, t0 + 1s));
    table.observe(lockAt("redlock:c", "r-1", 19'000, t0 + 1s, LockKind::RedlockNet));
    // Read again as they are: neither counts twice.
    table.observe(lockAt("lock:{a}", "tok-3", 19'500, t0 + 1500ms));
    table.observe(lockAt("lock:{b}", "tok-2", 59'500, t0 + 1500ms));
    EXPECT_EQ(handoffs(table, LockKind::Guide), 1u);
    EXPECT_EQ(renewals(table, LockKind::Guide), 1u);
    EXPECT_EQ(handoffs(table, LockKind::RedlockNet), 0u);
    EXPECT_EQ(renewals(table, LockKind::RedlockNet), 0u);
    // A handoff of a key a view holds (a new record) counts the same.
    ASSERT_NE(table.share("redlock:c"), nullptr);
    table.observe(lockAt("redlock:c", "r-2", 20'000, t0 + 2s, LockKind::RedlockNet));
    EXPECT_EQ(handoffs(table, LockKind::RedlockNet), 1u);
}

TEST(LockTableChanges, TheCountsTravelWithTheTableAndSurviveARemovedKey) {
    const auto t0 = SteadyClock::now();
    LockTable table;
    table.observe(lockAt("lock:{a}", "tok-1", 20'000, t0));
    table.observe(lockAt("lock:{a}", "tok-2", 20'000, t0 + 1s));
    EXPECT_TRUE(table.remove("lock:{a}"));
    EXPECT_EQ(handoffs(table, LockKind::Guide), 1u) << "counts only grow";
    LockTable copy(table);
    LockTable moved(std::move(table));
    EXPECT_EQ(handoffs(copy, LockKind::Guide), 1u);
    EXPECT_EQ(handoffs(moved, LockKind::Guide), 1u);
}
