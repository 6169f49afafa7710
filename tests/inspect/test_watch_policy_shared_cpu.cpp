// Issue 36: the watches of one process (the exporter's fifty targets, the window's fifty
// connections) share one budget for their own CPU, so the process stays within it whatever
// the fleet's size; the sweep for new keys waits for that CPU too.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "inspect_helpers.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/shared_cpu_budget.h"
#include "lockscope/inspect/watch_policy.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;
using lockscope::testing::lockAt;

namespace {

LockTable tableOf(int n, SteadyClock::time_point at) {
    LockTable t;
    for (int i = 0; i < n; ++i)
        t.observe(lockAt("lock:" + std::to_string(100000 + i), 600'000, at));
    return t;
}

// The rotation of each policy's last step, after `steps` steps of 500 ms in which the server
// is fast (1 µs a key) and the watcher is not (10 µs a key).
std::vector<std::size_t> lastRotations(std::vector<std::unique_ptr<WatchPolicy>>& policies,
                                       const LockTable& table, SteadyClock::time_point t0,
                                       int steps) {
    std::vector<std::size_t> last(policies.size());
    for (int step = 1; step <= steps; ++step)
        for (std::size_t i = 0; i < policies.size(); ++i) {
            PollPlan plan = policies[i]->plan(table, t0 + step * 500ms, false);
            policies[i]->spentOnPoll(1us * plan.keys.size(), plan.keys.size());
            policies[i]->spentOnClient(10us * plan.keys.size(), plan.keys.size());
            last[i] = plan.rotation;
        }
    return last;
}

}  // namespace

TEST(SharedCpuBudget, EachMemberHasTheTotalDividedByTheMembersNow) {
    auto budget = std::make_shared<SharedCpuBudget>(0.03);
    EXPECT_DOUBLE_EQ(budget->perMember(), 0.03);  // none yet: what one would have
    std::optional<SharedCpuBudget::Membership> first(std::in_place, budget);
    EXPECT_DOUBLE_EQ(first->share(), 0.03);
    {
        SharedCpuBudget::Membership second(budget);
        // NOLINTNEXTLINE(performance-unnecessary-copy-initialization): the copy is the point
        SharedCpuBudget::Membership copy(second);  // a copy is a member of its own
        EXPECT_EQ(budget->members(), 3);
        EXPECT_DOUBLE_EQ(first->share(), 0.01);
    }
    EXPECT_EQ(budget->members(), 1);  // those that left give their part back
    EXPECT_DOUBLE_EQ(first->share(), 0.03);
    first.reset();
    EXPECT_EQ(budget->members(), 0);
    EXPECT_THROW(SharedCpuBudget(0), InvalidArgumentError);
    EXPECT_THROW(SharedCpuBudget(1.5), InvalidArgumentError);
    EXPECT_THROW(SharedCpuBudget(std::nan("")), InvalidArgumentError);
}

// Fifty watches of their own each re-read 1,500 keys a step at 3% of a core (75,000 in all,
// the exporter at a core and more); sharing 3%, they re-read about as many together as one
// did alone.
TEST(WatchPolicy, WatchesSharingACpuBudgetStayWithinItTogether) {
    auto t0 = SteadyClock::now();
    LockTable table = tableOf(20'000, t0);
    auto shared = std::make_shared<SharedCpuBudget>(0.03);
    std::vector<std::unique_ptr<WatchPolicy>> policies;
    for (int i = 0; i < 50; ++i) {
        policies.push_back(std::make_unique<WatchPolicy>(
            WatchPolicyOptions{.interval = 500ms, .budget = 0.5, .sharedClientBudget = shared}));
        policies.back()->setSteadySince(t0 + 1ms);
    }
    EXPECT_DOUBLE_EQ(policies.front()->clientBudget(), 0.03 / 50);
    std::size_t together = 0;
    for (std::size_t rotation : lastRotations(policies, table, t0, 20)) together += rotation;
    // 3% of 500 ms at 10 µs a key: 1,500 keys a step for all fifty.
    EXPECT_LE(together, 1'700u);
    EXPECT_GE(together, 1'000u);

    // Forty-nine leave: the one left has the whole budget again.
    policies.resize(1);
    EXPECT_DOUBLE_EQ(policies.front()->clientBudget(), 0.03);
    const std::size_t alone = lastRotations(policies, table, t0 + 10s, 20).front();
    EXPECT_LE(alone, 1'600u);
    EXPECT_GE(alone, 1'000u);
}

// A SCAN round of 1,000 names costs the watcher more than the server (each name parsed and
// looked up in the table). On a fast server the sweep's server credit allowed hundreds of
// rounds a step; the sweep's part of the watcher's CPU now bounds them.
TEST(WatchPolicy, TheSweepWaitsForTheWatchersOwnCpu) {
    auto t0 = SteadyClock::now();
    LockTable table = tableOf(20'000, t0);
    // Where watches share the budget (a lone watch's sweep waits for the server alone): two
    // members of 6%, 3% each.
    auto shared = std::make_shared<SharedCpuBudget>(0.06);
    SharedCpuBudget::Membership other(shared);
    WatchPolicy policy({.interval = 500ms, .budget = 0.5, .sharedClientBudget = shared});
    policy.setSteadySince(t0 + 1ms);
    int rounds = 0;
    std::chrono::nanoseconds cpu{0};
    const int steps = 40;
    for (int step = 1; step <= steps; ++step) {
        PollPlan plan = policy.plan(table, t0 + step * 500ms, true);
        policy.spentOnPoll(1us * plan.keys.size(), plan.keys.size());
        policy.spentOnClient(10us * plan.keys.size(), plan.keys.size());
        policy.spentOnSweep(1us * plan.sweepRounds, plan.sweepRounds);
        policy.spentOnClientSweep(2ms * plan.sweepRounds, plan.sweepRounds);
        if (step > steps / 2) {  // after the first bucket is spent
            rounds += plan.sweepRounds;
            cpu += 10us * plan.keys.size() + 2ms * plan.sweepRounds;
        }
    }
    // The sweep's half (its share until a pass is measured) of 3% of 500 ms at 2 ms a round:
    // 3.75 rounds a step, 75 over twenty steps. The server's credit alone allowed 1,000 a step.
    EXPECT_LE(rounds, 100);
    EXPECT_GE(rounds, 50);
    // The rotation and the sweep together: 3% of the 10 s.
    EXPECT_LE(cpu, 330ms);
    EXPECT_GE(cpu, 250ms);
    EXPECT_NEAR(double(policy.clientCostPerRound().count()), 2e6, 2e5);
}

// A member of a large shared budget still sweeps, one round at a time as its part of the
// watcher's CPU saves up for it: a round costs more than it saves up in a step.
TEST(WatchPolicy, ASmallMemberOfASharedBudgetStillSweeps) {
    auto t0 = SteadyClock::now();
    LockTable table = tableOf(10, t0);
    auto shared = std::make_shared<SharedCpuBudget>(0.03);
    std::vector<SharedCpuBudget::Membership> others(99, SharedCpuBudget::Membership(shared));
    WatchPolicy small({.interval = 500ms, .budget = 0.5, .sharedClientBudget = shared});
    int rounds = 0;
    for (int step = 1; step <= 200; ++step) {
        PollPlan plan = small.plan(table, t0 + step * 500ms, true);
        small.spentOnSweep(1us * plan.sweepRounds, plan.sweepRounds);
        small.spentOnClientSweep(300us * plan.sweepRounds, plan.sweepRounds);
        rounds += plan.sweepRounds;
    }
    // 0.03% of a core for 100 s (nothing else spends it here) at 0.3 ms a round: 100 rounds.
    EXPECT_GE(rounds, 60);
    EXPECT_LE(rounds, 110);
}
