// The urgent walk is driven by change (issue 36: a quiet table of 20,000 locks was walked every
// step of each of the exporter's fifty targets). The walk is skipped while the table's
// generation stands still and no lock has come near expiry or left the recent changes; each
// of these must still make a lock urgent at the step it happens: a lock nearing expiry with
// time alone, a TTL cut short, a TTL removed (an orphan), a new holder; and a removed lock
// must leave the list.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "inspect_helpers.h"
#include "lockscope/inspect/lock_table.h"
#include "lockscope/inspect/watch_policy.h"

namespace {

using namespace lockscope::inspect;
using namespace std::chrono_literals;
using lockscope::testing::lockAt;

// A quiet table: 10,000 locks far from expiry (a table walked every step before).
LockTable quietTable(SteadyClock::time_point at) {
    LockTable t;
    for (int i = 0; i < 10'000; ++i)
        t.observe(lockAt("lock:" + std::to_string(100000 + i), 3'600'000, at));
    return t;
}

bool urgentIn(const PollPlan& plan, const std::string& key) {
    const auto end = plan.keys.begin() + std::ptrdiff_t(plan.focus + plan.urgent);
    return std::find(plan.keys.begin() + std::ptrdiff_t(plan.focus), end, key) != end;
}

class UrgentByChange : public ::testing::Test {
  protected:
    void SetUp() override {
        t0_ = SteadyClock::now();
        table_ = quietTable(t0_);
        policy_.setSteadySince(t0_ + 1s);
    }
    // The plan of a step at t0 + offset, paid for as a step would be.
    PollPlan step(std::chrono::milliseconds offset) {
        PollPlan plan = policy_.plan(table_, t0_ + offset, false);
        policy_.spentOnPoll(std::chrono::microseconds(20) * plan.keys.size(), plan.keys.size());
        return plan;
    }
    SteadyClock::time_point t0_;
    LockTable table_;
    WatchPolicy policy_{WatchPolicyOptions{.interval = 500ms, .budget = 0.01}};
};

TEST_F(UrgentByChange, ALockComingNearExpiryWithTimeAloneIsUrgentAtThatStep) {
    table_.observe(lockAt("lock:soon", 8'000, t0_));  // near expiry (5 s) from t0 + 3 s
    const auto generation = table_.generation();
    for (auto at : {0ms, 1000ms, 2000ms, 2900ms})
        EXPECT_FALSE(urgentIn(step(at), "lock:soon")) << at.count();
    EXPECT_TRUE(urgentIn(step(3000ms), "lock:soon"))
        << "nothing changed in the table, but its TTL came within nearExpiry";
    EXPECT_EQ(table_.generation(), generation) << "the table itself did not change";
}

TEST_F(UrgentByChange, ATtlCutShortBetweenTwoStepsIsUrgentAtTheNext) {
    EXPECT_EQ(step(0ms).urgent, 0u);
    EXPECT_EQ(step(500ms).urgent, 0u);
    table_.observe(lockAt("lock:100042", 2'000, t0_ + 900ms));  // PEXPIRE to 2 s
    EXPECT_TRUE(urgentIn(step(1000ms), "lock:100042"));
}

TEST_F(UrgentByChange, ATtlRemovedBetweenTwoStepsIsUrgentAtTheNext) {
    EXPECT_EQ(step(0ms).urgent, 0u);
    table_.observe(lockAt("lock:100043", -1, t0_ + 900ms));  // PERSIST: an orphan now
    EXPECT_TRUE(urgentIn(step(1000ms), "lock:100043"));
}

TEST_F(UrgentByChange, ANewHolderIsUrgentAtTheNextStepAndLeavesWhenNoLongerRecent) {
    EXPECT_EQ(step(1500ms).urgent, 0u);
    LockRecord handed = lockAt("lock:100044", 3'600'000, t0_ + 1800ms);
    handed.token = "another holder";
    table_.observe(handed);
    EXPECT_TRUE(urgentIn(step(2000ms), "lock:100044"));
    const auto recent = WatchPolicyOptions{}.recentChange;
    EXPECT_TRUE(urgentIn(step(1800ms + recent - 100ms), "lock:100044"));
    EXPECT_FALSE(urgentIn(step(1800ms + recent + 100ms), "lock:100044"))
        << "no longer a recent change: read in rotation like the rest";
}

TEST_F(UrgentByChange, ARemovedLockLeavesTheList) {
    table_.observe(lockAt("lock:orphan", -1, t0_));
    EXPECT_TRUE(urgentIn(step(0ms), "lock:orphan"));
    table_.remove("lock:orphan");
    table_.observe(lockAt("lock:orphan2", -1, t0_ + 400ms));
    const PollPlan plan = step(500ms);
    EXPECT_FALSE(urgentIn(plan, "lock:orphan"));
    EXPECT_TRUE(urgentIn(plan, "lock:orphan2"));
}

}  // namespace
