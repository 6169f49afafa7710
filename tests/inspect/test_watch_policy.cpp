// The watch's load budget (issue 18): what a person sees is read every interval, the rest
// only as fast as the budget allows, and the cost is measured, not assumed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <thread>

#include "inspect_helpers.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/load_meter.h"
#include "lockscope/inspect/lock_age.h"
#include "lockscope/inspect/lock_watch.h"
#include "lockscope/inspect/watch_policy.h"
#include "redis_fixture.h"
#include "server_time_probe.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;
using lockscope::testing::lockAt;
using lockscope::testing::RedisTest;

namespace {

LockTable tableOf(int n, SteadyClock::time_point at, std::int64_t pttlMs = 600'000) {
    LockTable t;
    for (int i = 0; i < n; ++i) t.observe(lockAt("lock:" + std::to_string(100000 + i), pttlMs, at));
    return t;
}

// The server's own CPU seconds (user + sys) from INFO cpu: what the watch really cost it.
double serverCpuSeconds(Connection& c) {
    std::string info(c.command({"INFO", "cpu"}).text());
    auto field = [&](const std::string& name) {
        auto at = info.find(name + ":");
        return at == std::string::npos ? 0.0 : std::stod(info.substr(at + name.size() + 1));
    };
    return field("used_cpu_sys") + field("used_cpu_user");
}

long long totalCalls(Connection& c) {
    std::string info(c.command({"INFO", "commandstats"}).text());
    long long total = 0;
    for (auto at = info.find("calls="); at != std::string::npos; at = info.find("calls=", at + 1))
        total += std::stoll(info.substr(at + 6));
    return total;
}

}  // namespace

// The table keys its map by a view of each record's own key (issue 18: one copy of each key,
// not two). The view must survive every update, a copy and a move, for short keys (stored
// inside the string), long ones (on the heap) and the empty key Redis allows.
TEST(LockTable, KeysStayFindableThroughUpdatesCopiesAndMoves) {
    auto t0 = SteadyClock::now();
    const std::vector<std::string> keys = {"", "short", "lock:{" + std::string(100, 'k') + "}",
                                           std::string("bin\0ary", 7)};
    LockTable table;
    for (int round = 0; round < 3; ++round)
        for (const auto& key : keys) {
            LockRecord r = lockAt(key, 60'000, t0 + round * 1s);
            r.token = "holder-" + std::to_string(round);
            table.observe(r);
        }
    auto findsAll = [&](const LockTable& t) {
        for (const auto& key : keys) {
            const LockRecord* r = t.find(key);
            if (!r || r->key != key || r->token != "holder-2") return false;
        }
        return t.size() == keys.size();
    };
    EXPECT_TRUE(findsAll(table));
    auto copy = std::make_unique<LockTable>(table);
    table.remove(keys[2]);
    table = LockTable{};  // the source's records are gone: the copy holds its own
    EXPECT_TRUE(findsAll(*copy));
    LockTable moved = std::move(*copy);
    copy.reset();
    EXPECT_TRUE(findsAll(moved));
    std::vector<std::string> inOrder;
    for (const auto& [key, record] : moved.records()) {
        EXPECT_EQ(key, record->key);
        inOrder.push_back(record->key);
    }
    EXPECT_TRUE(std::is_sorted(inOrder.begin(), inOrder.end()));
    EXPECT_TRUE(moved.remove(keys[3]));
    EXPECT_EQ(moved.find(keys[3]), nullptr);
    EXPECT_NE(moved.find(keys[0]), nullptr);
}

TEST(WatchPolicy, RejectsABudgetOutsideZeroToOne) {
    EXPECT_THROW(WatchPolicy({.budget = 0}), InvalidArgumentError);
    EXPECT_THROW(WatchPolicy({.budget = 1.5}), InvalidArgumentError);
    EXPECT_THROW(WatchPolicy({.budget = std::nan("")}), InvalidArgumentError);
    EXPECT_THROW(WatchPolicy({.interval = 0ms}), InvalidArgumentError);
    WatchPolicy p;
    EXPECT_THROW(p.setBudget(-0.1), InvalidArgumentError);
    EXPECT_DOUBLE_EQ(p.budget(), 0.05);
}

TEST(WatchPolicy, FocusIsReadEveryStepAndTheRestWithinTheBudget) {
    auto t0 = SteadyClock::now();
    LockTable table = tableOf(100'000, t0);
    WatchPolicy policy({.interval = 500ms, .budget = 0.05});
    policy.setSteadySince(t0 + 1ms);  // the table was read by the first scan, before
    policy.setFocus({"lock:100007", "lock:150000", "not:known"});
    std::set<std::string> rotated;
    for (int step = 1; step <= 20; ++step) {
        auto now = t0 + step * 500ms;
        PollPlan plan = policy.plan(table, now, false);
        ASSERT_GE(plan.keys.size(), 2u);
        EXPECT_EQ(plan.keys[0], "lock:100007");
        EXPECT_EQ(plan.keys[1], "lock:150000");
        EXPECT_EQ(plan.focus, 2u);  // a key the table does not hold is not read
        for (std::size_t i = plan.focus; i < plan.keys.size(); ++i) rotated.insert(plan.keys[i]);
        // Each key costs 20 µs here: 5% of 500 ms pays for about 1,250 of them.
        policy.spentOnPoll(std::chrono::microseconds(20) * plan.keys.size(), plan.keys.size());
        if (step > 3) {
            EXPECT_LT(plan.keys.size(), 2'000u) << step;
        }
    }
    // The rotation moves on: the keys read in rotation are different ones each step.
    EXPECT_GT(rotated.size(), 10'000u);
    EXPECT_NEAR(double(policy.costPerKey().count()), 20'000.0, 4'000.0);
}

// Issue 18: the window used 26% of a core at 1M locks although the server's share was within
// budget: a fast server made the rotation re-read tens of thousands of keys a second, each
// costing the watcher more CPU than the server. The rotation also waits for the watcher's
// own CPU budget (3% of a core by default).
TEST(WatchPolicy, TheRotationIsBoundedByTheWatchersOwnCpu) {
    auto t0 = SteadyClock::now();
    LockTable table = tableOf(100'000, t0);
    WatchPolicy policy({.interval = 500ms, .budget = 0.5});
    policy.setSteadySince(t0 + 1ms);
    std::size_t lastRotation = 0;
    for (int step = 1; step <= 20; ++step) {
        PollPlan plan = policy.plan(table, t0 + step * 500ms, false);
        // The server is fast (1 µs a key), the watcher is not (10 µs a key).
        policy.spentOnPoll(std::chrono::microseconds(1) * plan.keys.size(), plan.keys.size());
        policy.spentOnClient(std::chrono::microseconds(10) * plan.keys.size(), plan.keys.size());
        lastRotation = plan.rotation;
    }
    // 3% of 500 ms at 10 µs a key is 1,500 keys a step; the server's budget alone would
    // allow 250,000.
    EXPECT_LE(lastRotation, 1'600u);
    EXPECT_GE(lastRotation, 1'000u);
    EXPECT_NEAR(double(policy.clientCostPerKey().count()), 10'000.0, 2'000.0);
    EXPECT_THROW(WatchPolicy({.clientBudget = 0}), InvalidArgumentError);
}

// A new lock must be found within about a minute (issue 18): the sweep's share follows what a
// pass over the keyspace costs. A pass of 3M keys costs the server about 3 s, which at a fifth
// of a 5% budget would take five minutes.
TEST(WatchPolicy, TheSweepsShareFollowsWhatAPassCosts) {
    auto t0 = SteadyClock::now();
    LockTable table = tableOf(10, t0);
    WatchPolicy cheap({.interval = 500ms, .budget = 0.05});
    cheap.setSweepPassCost(10ms);
    EXPECT_DOUBLE_EQ(cheap.sweepShare(), 0.2);  // the re-reads keep most of the budget
    WatchPolicy costly({.interval = 500ms, .budget = 0.05});
    costly.setSweepPassCost(3s);
    // but never all of it: the rotation keeps 5%
    EXPECT_DOUBLE_EQ(costly.sweepShare(), 1.0 - WatchPolicy::kLeastPollShare);
    WatchPolicy middle({.interval = 500ms, .budget = 0.05});
    middle.setSweepPassCost(1s);  // 1 s in 40 s is 2.5% of a core: half the budget
    EXPECT_NEAR(middle.sweepShare(), 0.5, 1e-9);
    EXPECT_GT(costly.plan(table, t0, true).sweepRounds, cheap.plan(table, t0, true).sweepRounds);
    costly.setFollowingEvents(true);  // keyspace events bring new keys: sweep rarely
    EXPECT_LE(costly.sweepShare(), 0.04);
}

TEST(WatchPolicy, NearExpiryRecentChangesAndOrphansComeBeforeTheRotation) {
    auto t0 = SteadyClock::now();
    LockTable table = tableOf(50'000, t0);
    table.observe(lockAt("lock:expiring", 3'000, t0));
    table.observe(lockAt("lock:orphan", -1, t0));
    WatchPolicy policy({.interval = 500ms, .budget = 0.01});
    policy.setSteadySince(t0 + 1s);
    auto changed = lockAt("lock:100042", 600'000, t0 + 2s);
    changed.token = "another holder";
    table.observe(changed);
    for (int step = 0; step < 5; ++step) {
        PollPlan plan = policy.plan(table, t0 + 2s + step * 500ms, false);
        std::set<std::string> keys(plan.keys.begin(), plan.keys.end());
        EXPECT_TRUE(keys.count("lock:expiring")) << step;
        EXPECT_TRUE(keys.count("lock:orphan")) << step;
        EXPECT_TRUE(keys.count("lock:100042")) << step;
        EXPECT_EQ(plan.urgent, 3u);
        policy.spentOnPoll(std::chrono::microseconds(20) * plan.keys.size(), plan.keys.size());
    }
}

TEST(WatchPolicy, SweepsOnlyWhenWantedAndLessWhenFollowingEvents) {
    auto t0 = SteadyClock::now();
    LockTable table = tableOf(10, t0);
    WatchPolicy policy({.interval = 500ms, .budget = 0.05});
    EXPECT_EQ(policy.plan(table, t0, false).sweepRounds, 0);
    WatchPolicy sweeping({.interval = 500ms, .budget = 0.05});
    int rounds = sweeping.plan(table, t0, true).sweepRounds;
    EXPECT_GT(rounds, 0);
    WatchPolicy following({.interval = 500ms, .budget = 0.05});
    following.setFollowingEvents(true);
    EXPECT_LT(following.plan(table, t0, true).sweepRounds, rounds);
}

TEST(LoadMeter, CommandsPerSecondAndServerShareOverTheWindow) {
    LoadMeter meter(10s);
    auto t0 = SteadyClock::now();
    EXPECT_EQ(meter.figures(t0, 0.05).commandsPerSecond, 0);
    for (int i = 1; i <= 10; ++i) meter.add(t0 + i * 1s, 1000, 10ms);
    LoadFigures f = meter.figures(t0 + 10s, 0.05);
    EXPECT_NEAR(f.commandsPerSecond, 1000, 120);
    EXPECT_NEAR(f.serverShare, 0.01, 0.002);
    EXPECT_DOUBLE_EQ(f.budget, 0.05);
    // Samples older than the window are forgotten.
    EXPECT_NEAR(meter.figures(t0 + 25s, 0.05).commandsPerSecond, 0, 1e-9);
}

// Issue 18's test: 50,000 locks on a real server, watched a few seconds with the default
// budget. Before the budget, every step re-read all 50,000 (over 100,000 commands per
// 200 ms step, the server busy most of the time); now the server's own CPU stays near the
// budget while a visible lock that changes is still seen at the next step.
TEST_F(RedisTest, FiftyThousandLocksStayWithinTheBudgetAndAVisibleChangeIsSeenAtOnce) {
    Connection c = connect(ConnectionOptions{.commandTimeout = 30s});
    std::vector<std::vector<std::string>> batch;
    for (int i = 0; i < 50'000; ++i) {
        batch.push_back({"SET", "lock:{job:" + std::to_string(i) + "}",
                         "token-" + std::to_string(i), "PX", "600000"});
        if (batch.size() == 5000) c.pipeline(batch), batch.clear();
    }
    Connection w = connect(ConnectionOptions{.commandTimeout = 30s});
    LockWatch watch(w, {.pollInterval = 200ms, .rescanInterval = 5s, .budget = 0.05});
    ASSERT_EQ(watch.step().changed.size(), 50'000u);  // the first scan reads everything
    std::vector<std::string> visible;
    for (int i = 100; i < 140; ++i) visible.push_back("lock:{job:" + std::to_string(i) + "}");
    watch.setFocus(visible);

    // Steady state: the first second settles the measured costs, the next three count.
    for (int i = 0; i < 5; ++i) watch.step(), std::this_thread::sleep_for(200ms);
    double cpu0 = serverCpuSeconds(c);
    long long calls0 = totalCalls(c);
    auto start = SteadyClock::now();
    int seen = 0, changes = 0;
    for (int i = 0; i < 15; ++i) {
        if (i % 5 == 2) {
            c.command({"SET", "lock:{job:120}", "handoff-" + std::to_string(i), "PX", "600000"});
            ++changes;
            auto u = watch.step();
            for (const auto& r : u.changed)
                if (r.key == "lock:{job:120}" && r.token == "handoff-" + std::to_string(i)) ++seen;
        } else {
            watch.step();
        }
        std::this_thread::sleep_for(200ms);
    }
    double seconds = std::chrono::duration<double>(SteadyClock::now() - start).count();
    double serverShare = (serverCpuSeconds(c) - cpu0) / seconds;
    double callsPerSecond = double(totalCalls(c) - calls0 - 2) / seconds;
    LoadFigures load = watch.load();
    EXPECT_EQ(seen, changes) << "a visible lock's change was not seen at the next step";
    // The server's CPU includes its own housekeeping (serverCron): allow that much beside
    // the 5% budget. Without the budget this is above 50%.
    EXPECT_LT(serverShare, 0.10) << "server CPU share " << serverShare;
    // The watch's own figure covers the last 10 s, the first scan included: just present.
    EXPECT_GT(load.serverShare, 0);
    // Re-reading everything every step would be 250,000 commands/s. The bound is back at
    // 25,000 (it was loosened to 50,000 when runs measured 39,000): the rotation now also
    // waits for the watcher's own CPU budget, and this measured about 6,000 (issue 18).
    EXPECT_LT(callsPerSecond, 25'000) << callsPerSecond;
    EXPECT_GT(load.commandsPerSecond, 0);
    std::printf("50k locks: server CPU %.1f%%, measured share %.1f%%, %.0f commands/s\n",
                serverShare * 100, load.serverShare * 100, callsPerSecond);
}

TEST_F(RedisTest, TheSweepFindsNewLocksAndSkipsOrdinaryKeys) {
    Connection c = connect();
    c.command({"SET", "lock:a", "token-a", "PX", "60000"});
    Connection w = connect();
    WatchOptions options{.pollInterval = 20ms, .rescanInterval = 20ms};
    options.scan.patterns = {"*"};
    LockWatch watch(w, options);
    ASSERT_EQ(watch.step().changed.size(), 1u);
    c.command({"SET", "lock:b", "0123456789abcdef0123456789abcdef", "PX", "60000"});
    c.command({"SET", "cache:config", "plain value"});  // no TTL, no token: not a lock
    bool found = false, passed = false;
    for (int i = 0; i < 50 && !(found && passed); ++i) {
        std::this_thread::sleep_for(25ms);
        auto u = watch.step();
        for (const auto& r : u.changed) found = found || r.key == "lock:b";
        passed = passed || (found && u.rescanned);
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(watch.table().find("cache:config"), nullptr);
    EXPECT_TRUE(passed) << "the sweep never finished a pass";
}

// Issue 12: the Age of a lock that appeared while LockScope was watching is the time since
// it was first seen (its acquire was seen), not "unknown"; a lock that was already there at
// the first scan has no such evidence.
TEST_F(RedisTest, ALockThatAppearsWhileWatchingHasItsAcquireSeen) {
    Connection c = connect();
    c.command({"SET", "lock:old", "0123456789abcdef0123456789abcdef", "PX", "60000"});
    Connection w = connect();
    LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 20ms});
    watch.step();
    c.command({"SET", "lock:new", "fedcba9876543210fedcba9876543210", "PX", "60000"});
    for (int i = 0; i < 50 && !watch.table().find("lock:new"); ++i)
        std::this_thread::sleep_for(25ms), watch.step();
    const LockRecord* fresh = watch.table().find("lock:new");
    const LockRecord* old = watch.table().find("lock:old");
    ASSERT_TRUE(fresh && old);
    auto now = SteadyClock::now();
    LockAge age = estimateAge(*fresh, now, WallClock::now());
    EXPECT_EQ(age.source, AgeSource::AcquireSeen);
    EXPECT_GE(age.ms, 0);
    EXPECT_LT(age.ms, 5000);
    EXPECT_EQ(estimateAge(*old, now, WallClock::now()).source, AgeSource::Unknown);
    // Polled again, it keeps that evidence.
    for (int i = 0; i < 3; ++i) std::this_thread::sleep_for(25ms), watch.step();
    EXPECT_EQ(
        estimateAge(*watch.table().find("lock:new"), SteadyClock::now(), WallClock::now()).source,
        AgeSource::AcquireSeen);
}

// The server's own account of the watch's commands (INFO commandstats), and text that is not one.
TEST(ServerTimeProbe, SumsTheWatchCommandsUsecAndIgnoresTheRest) {
    const std::string info =
        "# Commandstats\r\n"
        "cmdstat_get:calls=10,usec=150,usec_per_call=15.00,rejected_calls=0,failed_calls=0\r\n"
        "cmdstat_set:calls=99,usec=9999,usec_per_call=101.00\r\n"
        "cmdstat_pttl:calls=4,usec=20,usec_per_call=5.00\r\n"
        "cmdstat_scan:calls=2,usec=1000,usec_per_call=500.00\r\n";
    EXPECT_EQ(ServerTimeProbe::watchCommandsUsec(info), 1170u);
    EXPECT_EQ(ServerTimeProbe::watchCommandsUsec(""), 0u);
    EXPECT_EQ(ServerTimeProbe::watchCommandsUsec("cmdstat_get:calls=1,usec=\xff\xfe"), 0u);
    EXPECT_EQ(ServerTimeProbe::watchCommandsUsec("cmdstat_get:calls=1"), 0u);
    EXPECT_EQ(ServerTimeProbe::watchCommandsUsec("xcmdstat_get:calls=1,usec=5\n"), 0u);
}

// The server's whole CPU time (INFO cpu), the other bound on what the watch cost it: unlike
// commandstats' wall time, a loaded machine's preemptions do not inflate it.
TEST(ServerTimeProbe, ReadsTheServersCpuTime) {
    EXPECT_EQ(
        ServerTimeProbe::cpuUsec("# CPU\r\nused_cpu_sys:1.250000\r\nused_cpu_user:2.500000\r\n"
                                 "used_cpu_sys_children:9.000000\r\n"),
        std::optional<std::uint64_t>(3'750'000));
    EXPECT_EQ(ServerTimeProbe::cpuUsec("used_cpu_user:2.5\r\n"), std::nullopt);
    EXPECT_EQ(ServerTimeProbe::cpuUsec(""), std::nullopt);
}

// Issue 18: on a loaded machine commandstats counted the sweep's SCAN at twice its CPU time,
// and the watch, charging itself that, used 3.6% of a core of a 5% budget (a new lock was
// found in 95 s). With both accounts read, it charges itself the smaller.
TEST_F(RedisTest, TheWatchReadsBothOfTheServersAccounts) {
    Connection c = connect();
    ServerTimeProbe probe;
    auto first = probe.sample(c);
    ASSERT_TRUE(first.has_value());
    ASSERT_TRUE(first->cpuUsec.has_value()) << "INFO commandstats cpu gave no CPU time";
    for (int i = 0; i < 2000; ++i) c.command({"PTTL", "lock:none"});
    auto second = probe.sample(c);
    ASSERT_TRUE(second.has_value());
    EXPECT_GT(second->commandsUsec, first->commandsUsec);
    EXPECT_GT(*second->cpuUsec, *first->cpuUsec);
}

// Issue 18: a window holds each lock's record once, shared with the watch's table. A record
// a view holds must never change under it (the view reads it on another thread): the table's
// next change of that key makes a new record; an observation that changes nothing shown
// leaves the shared record as it is, its countdown still right.
TEST(LockTable, ASharedRecordNeverChangesAndTheNextChangeMakesANewOne) {
    auto t0 = SteadyClock::now();
    LockTable table;
    table.observe(lockAt("lock:a", 60'000, t0));
    SharedLockRecord shown = table.share("lock:a");
    ASSERT_NE(shown, nullptr);
    EXPECT_EQ(shown.get(), table.find("lock:a"));  // the same record, not a copy

    EXPECT_FALSE(table.observe(lockAt("lock:a", 59'000, t0 + 1s)));  // counted down: the same
    EXPECT_EQ(table.find("lock:a"), shown.get());
    EXPECT_EQ(shown->remainingAt(t0 + 1s), 59'000);

    LockRecord handedOff = lockAt("lock:a", 30'000, t0 + 2s);
    handedOff.token = "another holder";
    EXPECT_TRUE(table.observe(handedOff));
    EXPECT_EQ(shown->token, "t-lock:a");  // what the view holds is as it was
    ASSERT_NE(table.find("lock:a"), nullptr);
    EXPECT_NE(table.find("lock:a"), shown.get());
    EXPECT_EQ(table.find("lock:a")->token, "another holder");
    EXPECT_EQ(table.find("lock:a")->handoffs, 1u);

    SharedLockRecord again = table.share("lock:a");
    table.setFindings("lock:a", 4u);  // judged after it was shown: a new record again
    EXPECT_EQ(again->findings, 0u);
    EXPECT_EQ(table.find("lock:a")->findings, 4u);
    EXPECT_EQ(table.share("lock:none"), nullptr);
}

// A lock cut short (PEXPIRE to a shorter lease by its holder or an operator) is a change a
// view must show: counting down from the old reading, the row would show minutes left on a
// lock about to expire. Before, only a longer PTTL (a renewal) counted.
TEST_F(RedisTest, ALockWhoseTtlIsCutShortIsReportedChanged) {
    Connection c = connect();
    c.command({"SET", "lock:{cut}", "0123456789abcdef0123456789abcdef", "PX", "600000"});
    Connection w = connect();
    LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 20ms});
    ASSERT_EQ(watch.step().changed.size(), 1u);
    watch.setFocus({"lock:{cut}"});
    c.command({"PEXPIRE", "lock:{cut}", "5000"});
    std::int64_t shown = -1;
    for (int i = 0; i < 20 && shown < 0; ++i) {
        std::this_thread::sleep_for(25ms);
        for (const auto& r : watch.step().changed)
            if (r.key == "lock:{cut}") shown = r.pttlMs;
    }
    EXPECT_GE(shown, 0) << "the shorter TTL was never reported";
    EXPECT_LE(shown, 5000);
}

// Issue 18, the bench run at 6.0-6.2% of a core (budget 5%): in a large table the urgent list
// is recomputed only every few seconds, and its thresholds were all widened by that period,
// up to a minute. "Changed recently" (30 s) then took in locks changed 90 s before, all read
// every step even in debt. Only "near expiry" needs the slack (a lock gets there before the
// next walk); a lock changed 31 s ago is not urgent, whatever the walk's period.
TEST(WatchPolicy, ALockChangedLongerAgoThanRecentlyIsNotUrgentInALargeTable) {
    auto t0 = SteadyClock::now();
    LockTable table = tableOf(50'000, t0);
    WatchPolicy policy({.interval = 500ms, .budget = 0.05});
    policy.setSteadySince(t0 + 1s);
    LockRecord changed = lockAt("lock:100042", 600'000, t0 + 2s);
    changed.token = "another holder";
    table.observe(changed);
    const auto later = t0 + 2s + WatchPolicyOptions{}.recentChange + 1s;
    PollPlan plan = policy.plan(table, later, false);
    EXPECT_EQ(std::count(plan.keys.begin(), plan.keys.begin() + std::ptrdiff_t(plan.urgent),
                         "lock:100042"),
              0);
    EXPECT_EQ(plan.urgent, 0u);
    // Near expiry still looks ahead by the walk's period: 6 s left is urgent already.
    table.observe(lockAt("lock:expiring", 6'000, later));
    WatchPolicy fresh({.interval = 500ms, .budget = 0.05});
    EXPECT_EQ(fresh.plan(table, later, false).urgent, 1u);
}

// The keys read every step (the focus, orphans, near expiry, recently changed) are read even
// when they cost more than the re-reads' share. Their debt was capped and then forgiven while
// the sweep spent its own share in full, so the two together went over the budget. Now the
// sweep's credit pays that debt first: on a real server, with orphans costing most of a small
// budget and a keyspace to sweep, the watch's server time stays within the budget.
TEST_F(RedisTest, KeysReadEveryStepAndTheSweepTogetherStayWithinTheBudget) {
    Connection c = connect(ConnectionOptions{.commandTimeout = 30s});
    std::vector<std::vector<std::string>> batch;
    for (int i = 0; i < 200'000; ++i) {  // ordinary keys: the sweep's work
        batch.push_back({"SET", "cache:" + std::to_string(i), "v"});
        if (batch.size() == 10'000) c.pipeline(batch), batch.clear();
    }
    for (int i = 0; i < 400; ++i)  // orphans (no TTL): read every step
        batch.push_back(
            {"SET", "lock:{orphan:" + std::to_string(i) + "}", "0123456789abcdef0123456789abcdef"});
    c.pipeline(batch);
    Connection w = connect(ConnectionOptions{.commandTimeout = 30s});
    constexpr double kBudget = 0.005;
    LockWatch watch(w, {.pollInterval = 100ms, .rescanInterval = 10ms, .budget = kBudget});
    ASSERT_EQ(watch.step().changed.size(), 400u);
    auto runFor = [&](std::chrono::milliseconds d) {
        for (auto end = SteadyClock::now() + d; SteadyClock::now() < end;)
            watch.step(), std::this_thread::sleep_for(100ms);
    };
    runFor(2s);  // the costs are measured, the first bucket spent
    ServerTimeProbe probe;
    const auto before = probe.sample(c);
    ASSERT_TRUE(before.has_value() && before->cpuUsec);
    const auto start = SteadyClock::now();
    runFor(6s);
    const double seconds = std::chrono::duration<double>(SteadyClock::now() - start).count();
    const auto after = probe.sample(c);
    const double usec = double(
        std::min(after->commandsUsec - before->commandsUsec, *after->cpuUsec - *before->cpuUsec));
    const double share = usec / 1e6 / seconds;
    // The server's own account of the watch's commands, as the watch measures itself (the
    // smaller of commandstats and its CPU time, here over the whole window, which the steps'
    // smaller ones sum to no more than). Measured 0.49-0.61% with a 0.5% budget on the loaded
    // development machine; before, 0.73%.
    EXPECT_LT(share, kBudget * 1.3) << "server share " << share;
    EXPECT_GT(share, kBudget * 0.3) << "the sweep and the orphans hardly ran: " << share;
    std::printf("orphans and sweep: %.3f%% of a core (budget %.1f%%)\n", share * 100,
                kBudget * 100);
}
