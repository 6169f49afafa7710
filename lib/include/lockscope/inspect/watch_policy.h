#pragma once
// Decides what a watcher reads each step so that watching never becomes the heaviest client
// of a server, whatever the number of locks. Every interval it re-reads what a person sees or
// needs now: the focus (the visible rows and the selected lock, told by the view), locks near
// expiry, locks that changed recently, and orphans (no TTL). The rest is re-read in rotation,
// and the keyspace is swept for new keys, only as fast as a server-time budget allows
// (default 5% of one core). The cost of a key re-read and of a SCAN round is measured from
// the round trips the watcher reports (spentOnPoll/spentOnSweep), never assumed constant,
// so the same budget holds on a fast local server and on a slow remote one.
//
// Two credit buckets fill at the budget's rate: one for re-reads, one for the sweep. The
// sweep's share follows the keyspace: it is sized so that a pass (whose server time the
// watcher reports, setSweepPassCost) ends within kTargetPass, between a fifth and 95%
// of the budget (a twenty-fifth when keyspace notifications already tell about new keys). A
// third bucket bounds the watcher's own CPU: the rotation also waits for it (spentOnClient),
// so a fast server never makes the window re-read tens of thousands of keys a second; the
// sweep waits for it too, for its share of it (a SCAN round is parsed and looked up key by
// key). Many watches in one process share one such budget (shared_cpu_budget.h).
// The focus and up to 2,000 urgent keys are always read, even in debt; the debt then slows
// the rotation down and is paid from the sweep's credit first, so the total stays within
// the budget.

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "lockscope/inspect/lock_table.h"
#include "lockscope/inspect/shared_cpu_budget.h"

namespace lockscope::inspect {

struct WatchPolicyOptions {
    std::chrono::milliseconds interval{500};  // the full-rate interval of the focus
    double budget = 0.05;                     // share of one server core, (0, 1]
    std::chrono::milliseconds nearExpiry{5000};
    std::chrono::milliseconds recentChange{30000};
    // The watcher's own CPU the rotation and the sweep may use (share of one client core).
    double clientBudget = 0.03;
    // When set, the watcher's own CPU is this watch's part of a budget shared with the other
    // watches of the process (clientBudget is then not used).
    std::shared_ptr<SharedCpuBudget> sharedClientBudget;
};

struct PollPlan {
    std::vector<std::string> keys;  // to re-read now: focus, then urgent, then a rotation slice
    std::size_t focus = 0;          // how many of keys are focus / urgent / rotation
    std::size_t urgent = 0;
    std::size_t rotation = 0;
    int sweepRounds = 0;  // SCAN rounds of the new-key sweep allowed now
};

class WatchPolicy {
  public:
    // Throws InvalidArgumentError for a budget outside (0, 1] or an interval under 10 ms.
    explicit WatchPolicy(WatchPolicyOptions options = {});

    // The keys the view shows and the selected one; replaces the previous focus.
    void setFocus(std::vector<std::string> keys);
    void setBudget(double share);
    double budget() const { return options_.budget; }
    // Keyspace notifications bring new keys at once: the sweep then gets a small share.
    void setFollowingEvents(bool following) { followingEvents_ = following; }
    // The server time the last complete sweep pass cost: sizes the sweep's share so the next
    // pass ends within kTargetPass (a new key is found within about that long).
    void setSweepPassCost(std::chrono::nanoseconds cost);
    static constexpr std::chrono::seconds kTargetPass{40};
    // The least share of the budget the re-reads keep when the sweep needs more.
    static constexpr double kLeastPollShare = 0.05;
    double sweepShare() const;
    // Changes before this instant (the first full scan) do not count as recent.
    void setSteadySince(SteadyClock::time_point at) {
        steadySince_ = at;
        urgentGeneration_ = 0;  // what counts as recent changed: walk again
    }

    // What to read in the step starting at now. wantSweep: a new-key sweep is in progress
    // or due; without it the sweep's credit is kept for later.
    PollPlan plan(const LockTable& table, SteadyClock::time_point now, bool wantSweep);
    // What the step cost: the busy time of the re-read of `keys` keys, and of the sweep.
    // After a step's reads: the walk that finds urgent keys in a large table (every 2 s per
    // 200,000 locks, or less often when it costs more than 1% of the watcher's thread),
    // where it does not delay the next step's reads of the focus.
    void prepareNext(const LockTable& table, SteadyClock::time_point now);
    void spentOnPoll(std::chrono::nanoseconds busy, std::size_t keys);
    void spentOnSweep(std::chrono::nanoseconds busy, int rounds);
    // The watcher's own CPU for the re-read of `keys` keys (its thread's CPU time).
    void spentOnClient(std::chrono::nanoseconds cpu, std::size_t keys);
    // The watcher's own CPU for `rounds` SCAN rounds of the sweep (and the new keys' reads).
    void spentOnClientSweep(std::chrono::nanoseconds cpu, int rounds);
    // The share of one client core this watcher may use now.
    double clientBudget() const;

    // Measured costs (for tests and the command log): server time per key and per SCAN round.
    std::chrono::nanoseconds costPerKey() const { return costPerKey_; }
    std::chrono::nanoseconds costPerRound() const { return costPerRound_; }
    std::chrono::nanoseconds clientCostPerKey() const { return clientCostPerKey_; }
    std::chrono::nanoseconds clientCostPerRound() const { return clientCostPerRound_; }

  private:
    void accrue(SteadyClock::time_point now, bool wantSweep);
    bool urgent(const LockRecord& r, SteadyClock::time_point now,
                std::chrono::milliseconds slack) const;
    void refreshUrgent(const LockTable& table, SteadyClock::time_point now);
    // When r's urgency changes next with time alone (max: never, until its record changes).
    SteadyClock::time_point nextUrgencyChange(const LockRecord& r, SteadyClock::time_point now,
                                              std::chrono::milliseconds slack) const;
    void addRotation(const LockTable& table, PollPlan& plan, std::size_t count,
                     const std::unordered_set<std::string_view>& taken);
    std::size_t rotationAllowed(double serverCredit, double clientCredit, std::size_t planned,
                                std::size_t tableSize) const;
    int sweepRoundsAllowed(double clientCredit) const;

    WatchPolicyOptions options_;
    std::optional<SharedCpuBudget::Membership> sharedClient_;
    std::vector<std::string> focus_;
    // Recomputed every 2 s per 200,000 locks, or less often when the walk costs more than 1%
    // of the watcher's thread (see the .cpp), not every step.
    std::vector<std::string> urgent_;
    SteadyClock::time_point urgentAt_{};
    std::chrono::nanoseconds lastWalkCpu_{0};  // the watcher's CPU for the last urgent walk
    // The table's generation at the last walk (0: walk next time), its slack, and when the
    // first lock's urgency changes with time alone.
    std::uint64_t urgentGeneration_ = 0;
    std::chrono::milliseconds urgentSlack_{0};
    SteadyClock::time_point urgentDueAt_{};
    SteadyClock::time_point steadySince_ = SteadyClock::time_point::max();
    bool followingEvents_ = false;
    double pollCreditNs_ = 0, sweepCreditNs_ = 0, clientCreditNs_ = 0;
    double passShare_ = 0.5;  // of the budget, until a pass was measured
    bool bucketsFilled_ = false;
    SteadyClock::time_point accruedAt_{};
    std::chrono::nanoseconds costPerKey_{10'000};           // until measured: 10 µs per key
    std::chrono::nanoseconds costPerRound_{500'000};        // and 0.5 ms per SCAN round
    std::chrono::nanoseconds clientCostPerKey_{5'000};      // and 5 µs of the watcher's CPU
    std::chrono::nanoseconds clientCostPerRound_{300'000};  // and 0.3 ms a SCAN round
    std::string rotationAfter_;                             // the rotation goes on after this key
};

}  // namespace lockscope::inspect
