// The watch engine's holder verdicts in the lock table (ServerWatch's liveness option): a
// verdict set on a record a view shares makes a new record (the view's never changes); a
// re-read of the same holder keeps the verdict until the reader judges again; a new holder
// starts without one (the old holder's verdict is not the new one's).
#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/lock_table.h"

using namespace lockscope::inspect;
using namespace std::chrono_literals;

namespace {

LockRecord lockAt(const std::string& key, const std::string& token, std::int64_t pttlMs,
                  SteadyClock::time_point at) {
    LockRecord r;
    r.key = key;
    r.token = token;
    r.pttlMs = pttlMs;
    r.observedAt = r.firstSeen = r.lastChange = at;
    return r;
}

std::shared_ptr<const HolderVerdict> verdict(Verdict v) {
    auto h = std::make_shared<HolderVerdict>();
    h->verdict = v;
    return h;
}

}  // namespace

TEST(LockTableLiveness, AVerdictOnASharedRecordMakesANewOneAndARereadKeepsIt) {
    const auto t0 = SteadyClock::now();
    LockTable table;
    table.observe(lockAt("lock:a", "tok-1", 60'000, t0));
    auto shown = table.share("lock:a");
    const std::uint32_t orphaned = bit(RuleId::Orphaned);
    table.setVerdict("lock:a", verdict(Verdict::Gone), orphaned);
    EXPECT_EQ(shown->liveness, nullptr);  // what the view holds is as it was
    EXPECT_EQ(shown->findings, 0u);
    ASSERT_NE(table.find("lock:a"), shown.get());
    ASSERT_TRUE(table.find("lock:a")->liveness);
    EXPECT_EQ(table.find("lock:a")->liveness->verdict, Verdict::Gone);
    EXPECT_EQ(table.find("lock:a")->findings, orphaned);

    // A poll of the same holder (no verdict of its own) keeps the last one.
    table.observe(lockAt("lock:a", "tok-1", 59'000, t0 + 1s));
    ASSERT_TRUE(table.find("lock:a")->liveness);
    EXPECT_EQ(table.find("lock:a")->liveness->verdict, Verdict::Gone);

    // Another holder took it: the gone holder's verdict is not the new one's.
    EXPECT_TRUE(table.observe(lockAt("lock:a", "tok-2", 30'000, t0 + 2s)));
    EXPECT_EQ(table.find("lock:a")->liveness, nullptr);

    table.setVerdict("lock:none", verdict(Verdict::Gone), orphaned);  // unknown key: nothing
    EXPECT_EQ(table.find("lock:none"), nullptr);
}
