#include "lockscope/inspect/liveness/liveness_reader.h"

#include <thread>
#include <utility>

#include "client_list.h"
#include "job_queue_judge.h"
#include "own_lock_judge.h"
#include "renewal_tracker.h"
#include "sidekiq_judge.h"

namespace lockscope::inspect {

struct LivenessReader::State {
    State(Connection& c, LivenessOptions o)
        : options(std::move(o)),
          // A table that keeps verdicts alone (the exporter) keeps no look of its own per
          // key either: the watch's table counts the renewals (LockRecord::renewals).
          renewals(options.keepEvidence ? liveness::RenewalTracker::kDefaultMaxKeys : 0),
          clients(c, options.clientListEvery),
          jobQueues(c, clients, options),
          ownLocks(c, clients, options),
          sidekiq(c, options) {}

    LivenessOptions options;
    liveness::RenewalTracker renewals;
    liveness::ClientListReader clients;
    liveness::JobQueueJudge jobQueues;
    liveness::OwnLockJudge ownLocks;
    liveness::SidekiqJudge sidekiq;
    std::size_t lookups = 0;  // job look-ups in this pass
};

namespace {

bool isJobQueueLock(const LockRecord& r) {
    return r.kind == LockKind::BullMQ || r.kind == LockKind::Bull;
}

// Whose holder a look-up (and a second CLIENT LIST read) may confirm gone.
bool confirmable(const LockRecord& r) {
    return isJobQueueLock(r) || r.kind == LockKind::Guide;
}

Evidence overBudget(std::size_t budget) {
    Evidence over;
    over.seenAt = WallClock::now();
    over.text =
        "not looked up: over the budget of " + std::to_string(budget) + " look-ups per pass";
    return over;
}

std::optional<SteadyClock::time_point> earliest(std::optional<SteadyClock::time_point> a,
                                                std::optional<SteadyClock::time_point> b) {
    if (!a) return b;
    if (!b) return a;
    return std::min(*a, *b);
}

// Kinds that hold no holder of their own (a counter, a queue of waiters).
bool judged(const LockRecord& r) {
    switch (r.kind) {
        case LockKind::NotALock:
        case LockKind::RedissonFenceToken:
        case LockKind::RedissonFairQueue:
        case LockKind::RedissonFairTimeout:
            return false;
        case LockKind::SidekiqUniqueJobs:
            return liveness::isSidekiqLocked(r);
        default:
            return true;
    }
}

Evidence nothingToGoOn() {
    Evidence e;
    e.seenAt = WallClock::now();
    e.text =
        "nothing names its holder's process or connection; a renewal seen while watching "
        "would show it alive";
    return e;
}

}  // namespace

LivenessReader::LivenessReader(Connection& connection, LivenessOptions options)
    : state_(std::make_unique<State>(connection, std::move(options))) {}

LivenessReader::~LivenessReader() = default;

std::uint64_t LivenessReader::clientListReads() const {
    return state_->clients.reads();
}

// What the readers say of one row's holder (nothing: no reader had anything to go on), and
// whether that holds for as long as the row's record stays the same (fromRecordAlone).
std::vector<Evidence> LivenessReader::gather(const LockRecord& r, SteadyClock::time_point now,
                                             WallClock::time_point wallNow, bool& fromRecordAlone) {
    State& s = *state_;
    std::vector<Evidence> evidence;
    if (s.options.trackRenewals) evidence = s.renewals.observe(r, now, wallNow);
    const bool renewed = s.renewals.renewed(r.key) || r.renewals > 0;
    // A renewal's lines change with time (renewals that stopped): never settled.
    fromRecordAlone = evidence.empty();
    std::vector<Evidence> more;
    if (isJobQueueLock(r)) {
        fromRecordAlone = false;
        if (s.lookups++ >= s.options.maxLookupsPerPass)
            more.push_back(overBudget(s.options.maxLookupsPerPass));
        else
            more = s.jobQueues.judge(r, renewed);
    } else if (r.kind == LockKind::Guide) {
        bool holderAlone = false;
        more = s.ownLocks.judge(r, holderAlone);  // prefetched, within the same budget
        fromRecordAlone = fromRecordAlone && holderAlone;
    } else if (liveness::isSidekiqLocked(r)) {
        fromRecordAlone = false;
        more = s.sidekiq.judge(r);
    }
    if (evidence.empty()) return more;
    evidence.insert(evidence.end(), std::make_move_iterator(more.begin()),
                    std::make_move_iterator(more.end()));
    return evidence;
}

void LivenessReader::judgeRows(std::span<const LockRecord* const> rows, bool bare,
                               const OnVerdict& onVerdict) {
    State& s = *state_;
    const auto now = SteadyClock::now();
    const auto wallNow = WallClock::now();
    s.lookups = 0;
    s.sidekiq.beginPass(rows);
    s.ownLocks.prefetch(rows, s.options.maxLookupsPerPass);
    // Most locks of a large listing have nothing to go on: one shared verdict, not one each.
    std::shared_ptr<const HolderVerdict> nothing;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!judged(*rows[i])) continue;
        bool alone = false;
        auto evidence = gather(*rows[i], now, wallNow, alone);
        if (bare) {
            // The verdict alone: no object made, the row keeps (or gets) the shared one.
            const Verdict v =
                evidence.empty() ? Verdict::Unknown : weigh(std::move(evidence)).verdict;
            onVerdict(i, sharedVerdict(v, alone));
            continue;
        }
        if (evidence.empty()) {
            if (!nothing) {
                HolderVerdict v = weigh({nothingToGoOn()});
                v.fromRecordAlone = true;  // evidence nothing outside the record gave
                nothing = std::make_shared<const HolderVerdict>(std::move(v));
            }
            onVerdict(i, nothing);
            continue;
        }
        HolderVerdict v = weigh(std::move(evidence));
        v.fromRecordAlone = alone;
        onVerdict(i, std::make_shared<const HolderVerdict>(std::move(v)));
    }
}

void LivenessReader::judge(std::span<const LockRecord* const> rows, const OnVerdict& onVerdict) {
    judgeRows(rows, !state_->options.keepEvidence, onVerdict);
}

void LivenessReader::assess(std::vector<LockRecord>& batch) {
    State& s = *state_;
    std::vector<const LockRecord*> rows;
    rows.reserve(batch.size());
    for (const auto& r : batch) rows.push_back(&r);
    auto keep = [&](std::size_t i, std::shared_ptr<const HolderVerdict> v) {
        batch[i].liveness = std::move(v);
    };
    judgeRows(rows, false, keep);
    if (!s.options.waitToConfirm) return;
    // One look only: an absence that a second read would confirm is worth one short wait.
    auto due = earliest(s.jobQueues.confirmableAt(), s.ownLocks.confirmableAt());
    if (!due) return;
    std::this_thread::sleep_until(*due);
    const auto now = SteadyClock::now();
    const auto wallNow = WallClock::now();
    for (auto& r : batch)
        if (confirmable(r) && r.liveness && r.liveness->verdict == Verdict::Unknown) {
            s.lookups = 0;
            bool alone = false;
            auto evidence = gather(r, now, wallNow, alone);
            r.liveness = std::make_shared<const HolderVerdict>(weigh(
                evidence.empty() ? std::vector<Evidence>{nothingToGoOn()} : std::move(evidence)));
        }
}

}  // namespace lockscope::inspect
