#include "lockscope/inspect/watch_policy.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <limits>
#include <utility>

#include "lockscope/errors.h"

namespace lockscope::inspect {
namespace {

using std::chrono::nanoseconds;

// How long a bucket may save up: a watcher idle for a while must not then burst.
nanoseconds bucketWindow(std::chrono::milliseconds interval) {
    return std::max<nanoseconds>(2 * interval, std::chrono::seconds(1));
}

// Above this many locks the urgent list is recomputed every 2 s per 200,000 locks, not every
// step: the walk over the records (pointer chasing through the map) was the largest cost of
// the window at 1M locks. Its thresholds widen by that much.
constexpr std::size_t kWalkEveryStepUpTo = 20'000;
std::chrono::milliseconds urgentRefresh(std::size_t locks) {
    return std::chrono::milliseconds(2000 * std::max<std::size_t>(1, locks / 200'000));
}
constexpr std::size_t kUrgentAlways = 2000;
// The walk costs its thread a cache miss or more per lock (0.47 s at 1M locks on the loaded
// development machine, a third of the window's CPU when it ran every 10 s): it runs at most
// 1% of the time, and never less often than once a minute.
constexpr double kWalkShare = 0.01;
constexpr std::chrono::milliseconds kLongestRefresh{60'000};
// The share of the budget the buckets fill at (see accrue()).
constexpr double kSpendShare = 0.95;

nanoseconds threadCpuNow() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return std::chrono::seconds(t.tv_sec) + nanoseconds(t.tv_nsec);
}

// A moving average that trusts a measurement in proportion to how many items it covered.
nanoseconds blend(nanoseconds old, nanoseconds measured, double weight) {
    weight = std::clamp(weight, 0.0, 0.5);
    return nanoseconds(
        std::llround(double(old.count()) * (1 - weight) + double(measured.count()) * weight));
}

}  // namespace

WatchPolicy::WatchPolicy(WatchPolicyOptions options) : options_(std::move(options)) {
    if (options_.interval.count() < 10)
        throw InvalidArgumentError("watch intervals must be at least 10 ms");
    setBudget(options_.budget);
    if (!(options_.clientBudget > 0.0 && options_.clientBudget <= 1.0))
        throw InvalidArgumentError("the client CPU budget must be above 0% and at most 100%");
    if (options_.sharedClientBudget) sharedClient_.emplace(options_.sharedClientBudget);
}

double WatchPolicy::clientBudget() const {
    return sharedClient_ ? sharedClient_->share() : options_.clientBudget;
}

void WatchPolicy::setBudget(double share) {
    if (!(share > 0.0 && share <= 1.0))
        throw InvalidArgumentError("the load budget must be above 0% and at most 100%");
    options_.budget = share;
}

void WatchPolicy::setFocus(std::vector<std::string> keys) {
    focus_ = std::move(keys);
}

double WatchPolicy::sweepShare() const {
    return followingEvents_ ? std::min(passShare_, 0.04) : passShare_;
}

void WatchPolicy::setSweepPassCost(nanoseconds cost) {
    // The share of the budget that ends a pass of this cost within the target, taking at
    // least a fifth (a keyspace that grows is still found out) and leaving the re-reads at
    // least kLeastPollShare. The focus and urgent keys are read anyway (their debt is paid
    // from the sweep's credit): what a larger share takes from is the rotation of locks far
    // from expiry, whose PTTL counts down as read. At 3M keys a pass cost the server 2.9 s,
    // more than a 5% budget's 2 s in the target: with 85%, a new lock was found in 36-128 s.
    const double needed = double(cost.count()) / double(nanoseconds(kTargetPass).count());
    passShare_ = std::clamp(needed / options_.budget, 0.2, 1.0 - kLeastPollShare);
}

void WatchPolicy::accrue(SteadyClock::time_point now, bool wantSweep) {
    const double window = double(bucketWindow(options_.interval).count());
    // The buckets fill at a little under the budget: a step's SCAN rounds are granted on
    // their estimated cost and charged at what they cost, and at 1M locks the watch's own
    // 10-second figure came out at 5.07% of a 5% budget.
    const double budget = options_.budget * kSpendShare;
    const double sweepRate = wantSweep ? budget * sweepShare() : 0.0;
    const double pollRate = budget - sweepRate;
    const double clientRate = clientBudget();
    if (!bucketsFilled_) {
        // A fresh watcher may read everything once at the full rate.
        pollCreditNs_ = pollRate * window;
        sweepCreditNs_ = budget * sweepShare() * window;
        clientCreditNs_ = clientRate * window;
        bucketsFilled_ = true;
    } else {
        const double elapsed = double(nanoseconds(now - accruedAt_).count());
        // The focus and the urgent keys are read even in debt: the sweep's credit pays that
        // debt first, so the two together stay within the budget (a debt past the cap below
        // was forgiven, and the server's share went over the budget).
        double sweepGain = sweepRate * elapsed;
        if (pollCreditNs_ < 0) {
            const double repaid = std::min(sweepGain, -pollCreditNs_);
            pollCreditNs_ += repaid;
            sweepGain -= repaid;
        }
        pollCreditNs_ = std::min(pollCreditNs_ + pollRate * elapsed, pollRate * window);
        sweepCreditNs_ = std::min(sweepCreditNs_ + sweepGain, budget * sweepShare() * window);
        clientCreditNs_ = std::min(clientCreditNs_ + clientRate * elapsed, clientRate * window);
    }
    // A debt (a large focus, a slow server) is paid within ten seconds at most.
    const double maxDebt = options_.budget * 1e10;
    pollCreditNs_ = std::max(pollCreditNs_, -maxDebt);
    sweepCreditNs_ = std::max(sweepCreditNs_, -maxDebt);
    clientCreditNs_ = std::max(clientCreditNs_, -clientRate * 1e10);
    accruedAt_ = now;
}

bool WatchPolicy::urgent(const LockRecord& r, SteadyClock::time_point now,
                         std::chrono::milliseconds slack) const {
    if (!r.hasTtl()) return true;  // an orphan: the holder may be gone for good
    // Near expiry before the next walk: the slack takes in the locks that get there by then.
    if (r.remainingAt(now) <= (options_.nearExpiry + slack).count()) return true;
    // Recently changed: no slack. Widened by the walk's period (up to a minute), it kept
    // locks changed up to 90 s ago in a list read every step even in debt, and the server's
    // share went over the budget (6.0-6.2% in one bench run in three, issue 18); a lock
    // changed since the walk is read anyway when it changes again, or by the rotation.
    return r.lastChange >= steadySince_ && now - r.lastChange <= options_.recentChange;
}

void WatchPolicy::refreshUrgent(const LockTable& table, SteadyClock::time_point now) {
    const bool large = table.size() > kWalkEveryStepUpTo;
    // Until the next walk, which comes later the more the last one cost.
    const auto every = std::max(
        urgentRefresh(table.size()),
        std::min(kLongestRefresh,
                 std::chrono::duration_cast<std::chrono::milliseconds>(lastWalkCpu_ / kWalkShare)));
    if (large && now - urgentAt_ < every) return;
    const std::chrono::milliseconds slack = large ? every : std::chrono::milliseconds(0);
    // Driven by change: the list holds while the table has not changed (its generation) and
    // no lock has come near expiry or left the recent changes since (the walk found when the
    // first would). A quiet table of 20,000 locks was walked every step of each of the
    // exporter's fifty targets (17% of its samples, issue 36).
    if (table.generation() == urgentGeneration_ && slack == urgentSlack_ && now < urgentDueAt_)
        return;
    const nanoseconds cpuBefore = threadCpuNow();
    urgent_.clear();
    urgentDueAt_ = SteadyClock::time_point::max();
    for (const auto& [key, record] : table.records()) {
        if (urgent(*record, now, slack)) urgent_.emplace_back(key);
        urgentDueAt_ = std::min(urgentDueAt_, nextUrgencyChange(*record, now, slack));
    }
    urgentAt_ = now;
    urgentGeneration_ = table.generation();
    urgentSlack_ = slack;
    lastWalkCpu_ = threadCpuNow() - cpuBefore;
}

SteadyClock::time_point WatchPolicy::nextUrgencyChange(const LockRecord& r,
                                                       SteadyClock::time_point now,
                                                       std::chrono::milliseconds slack) const {
    auto due = SteadyClock::time_point::max();
    if (!r.hasTtl()) return due;  // urgent until its record changes
    // Comes near expiry (remainingAt() counts down from observedAt).
    const auto nearAt =
        r.observedAt + std::chrono::milliseconds(r.pttlMs) - (options_.nearExpiry + slack);
    if (nearAt > now) due = nearAt;
    // Leaves the recent changes.
    if (r.lastChange >= steadySince_) {
        const auto leaves = r.lastChange + options_.recentChange;
        if (leaves > now) due = std::min(due, leaves);
    }
    return due;
}

void WatchPolicy::prepareNext(const LockTable& table, SteadyClock::time_point now) {
    if (table.size() > kWalkEveryStepUpTo) refreshUrgent(table, now);
}

void WatchPolicy::addRotation(const LockTable& table, PollPlan& plan, std::size_t count,
                              const std::unordered_set<std::string_view>& taken) {
    const auto& records = table.records();
    if (records.empty() || count == 0) return;
    auto it = records.upper_bound(rotationAfter_);
    for (std::size_t visited = 0; visited < records.size() && plan.rotation < count; ++visited) {
        if (it == records.end()) it = records.begin();
        if (!taken.count(it->first)) {
            plan.keys.emplace_back(it->first);
            ++plan.rotation;
        }
        rotationAfter_ = it->first;
        ++it;
    }
}

std::size_t WatchPolicy::rotationAllowed(double serverCredit, double clientCredit,
                                         std::size_t planned, std::size_t tableSize) const {
    const double perKey = double(std::max<long long>(costPerKey_.count(), 1));
    const double clientPerKey = double(std::max<long long>(clientCostPerKey_.count(), 1));
    clientCredit -= double(planned) * clientPerKey;
    const double keys = std::min(serverCredit / perKey, clientCredit / clientPerKey);
    return keys < 1.0 ? 0 : std::size_t(std::min(keys, double(tableSize)));
}

// As many rounds as the server's budget allows and the sweep's part of the watcher's CPU, but
// at least one while that part is not in debt: a round can cost more than a small member of
// a shared budget saves up in a step; the debt it leaves delays the next round instead.
int WatchPolicy::sweepRoundsAllowed(double clientCredit) const {
    const double perRound = double(std::max<long long>(costPerRound_.count(), 1));
    const double clientPerRound = double(std::max<long long>(clientCostPerRound_.count(), 1));
    const double serverRounds = std::min(sweepCreditNs_ / perRound, 1000.0);
    if (serverRounds < 1.0 || clientCredit <= 0) return 0;
    return int(std::min(serverRounds, std::max(1.0, clientCredit / clientPerRound)));
}

PollPlan WatchPolicy::plan(const LockTable& table, SteadyClock::time_point now, bool wantSweep) {
    accrue(now, wantSweep);
    PollPlan plan;
    std::unordered_set<std::string_view> taken;
    for (const auto& key : focus_)
        if (table.find(key) && taken.insert(key).second) plan.keys.push_back(key), ++plan.focus;
    const double perKey = double(std::max<long long>(costPerKey_.count(), 1));
    double credit = pollCreditNs_ - double(plan.focus) * perKey;
    // A large table's urgent list is refreshed after a step's reads (prepareNext), so the
    // walk never delays the focus; a small one's every step, here.
    if (table.size() <= kWalkEveryStepUpTo || urgentAt_ == SteadyClock::time_point{})
        refreshUrgent(table, now);
    // Urgent keys are read every step like the focus, up to a bound; past it (a hundred
    // thousand orphans) they wait for credit like the rest.
    for (const auto& key : urgent_) {
        if (plan.urgent >= kUrgentAlways && credit < perKey) break;
        if (!table.find(key) || !taken.insert(key).second) continue;
        plan.keys.push_back(key);
        ++plan.urgent;
        credit -= perKey;
    }
    // The watcher's CPU is split like the server's budget: the sweep's part is kept for it.
    // Only where watches share the budget: there fifty sweeps together were the cost. A lone
    // watch's sweep of 3M keys costs it about 3 s of CPU a pass, more than 3% of a core gives
    // within the minute a new lock should be found in (gui_steady_bench: not found at all).
    const bool sweepWaits = wantSweep && sharedClient_ && sharedClient_->budget().members() > 1;
    const double sweepPart = sweepWaits ? sweepShare() : 0.0;
    addRotation(
        table, plan,
        rotationAllowed(credit, clientCreditNs_ * (1 - sweepPart), plan.keys.size(), table.size()),
        taken);
    if (wantSweep)
        plan.sweepRounds = sweepRoundsAllowed(sweepWaits ? clientCreditNs_ * sweepPart
                                                         : std::numeric_limits<double>::max());
    return plan;
}

void WatchPolicy::spentOnPoll(nanoseconds busy, std::size_t keys) {
    pollCreditNs_ -= double(busy.count());
    if (keys > 0)
        costPerKey_ = blend(costPerKey_, busy / std::int64_t(keys), double(keys) / 2000.0);
}

void WatchPolicy::spentOnClient(nanoseconds cpu, std::size_t keys) {
    clientCreditNs_ -= double(cpu.count());
    if (keys > 0)
        clientCostPerKey_ =
            blend(clientCostPerKey_, cpu / std::int64_t(keys), double(keys) / 2000.0);
}

void WatchPolicy::spentOnClientSweep(nanoseconds cpu, int rounds) {
    clientCreditNs_ -= double(cpu.count());
    if (rounds > 0) clientCostPerRound_ = blend(clientCostPerRound_, cpu / rounds, 0.1 * rounds);
}

void WatchPolicy::spentOnSweep(nanoseconds busy, int rounds) {
    sweepCreditNs_ -= double(busy.count());
    if (rounds > 0) costPerRound_ = blend(costPerRound_, busy / rounds, 0.1 * rounds);
}

}  // namespace lockscope::inspect
