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

void LivenessReader::assess(std::vector<LockRecord>& batch) {
    State& s = *state_;
    const auto now = SteadyClock::now();
    const auto wallNow = WallClock::now();
    s.lookups = 0;
    s.sidekiq.beginPass(batch);
    s.ownLocks.prefetch(batch, s.options.maxLookupsPerPass);
    std::shared_ptr<const HolderVerdict> nothing;
    auto judgeOne = [&](LockRecord& r) {
        std::vector<Evidence> evidence;
        if (s.options.trackRenewals) evidence = s.renewals.observe(r, now, wallNow);
        const bool renewed = s.renewals.renewed(r.key) || r.renewals > 0;
        if (isJobQueueLock(r)) {
            std::vector<Evidence> more;
            if (s.lookups++ >= s.options.maxLookupsPerPass)
                more.push_back(overBudget(s.options.maxLookupsPerPass));
            else
                more = s.jobQueues.judge(r, renewed);
            evidence.insert(evidence.end(), more.begin(), more.end());
        } else if (r.kind == LockKind::Guide) {
            auto more = s.ownLocks.judge(r);  // prefetched below, within the same budget
            evidence.insert(evidence.end(), more.begin(), more.end());
        } else if (liveness::isSidekiqLocked(r)) {
            auto more = s.sidekiq.judge(r);
            evidence.insert(evidence.end(), more.begin(), more.end());
        }
        if (evidence.empty()) {
            // Most locks of a large listing: one shared verdict, not one per lock.
            if (!nothing) nothing = std::make_shared<const HolderVerdict>(weigh({nothingToGoOn()}));
            r.liveness = nothing;
            return;
        }
        r.liveness = std::make_shared<const HolderVerdict>(weigh(std::move(evidence)));
    };
    for (auto& r : batch)
        if (judged(r)) judgeOne(r);
    if (!s.options.waitToConfirm) return;
    // One look only: an absence that a second read would confirm is worth one short wait.
    auto due = earliest(s.jobQueues.confirmableAt(), s.ownLocks.confirmableAt());
    if (!due) return;
    std::this_thread::sleep_until(*due);
    for (auto& r : batch)
        if (confirmable(r) && r.liveness && r.liveness->verdict == Verdict::Unknown) {
            s.lookups = 0;
            judgeOne(r);
        }
}

}  // namespace lockscope::inspect
