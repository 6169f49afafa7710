#include "job_queue_judge.h"

#include "job_queue_evidence.h"
#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/text_format.h"

namespace lockscope::inspect::liveness {
namespace {

std::string describeWorkers(const std::vector<const ClientEntry*>& workers) {
    std::string out;
    for (std::size_t i = 0; i < workers.size() && i < 3; ++i) {
        out += i ? ", " : "";
        out += quoted(workers[i]->name, 60) + " from " + workers[i]->addr;
    }
    if (workers.size() > 3) out += ", …";
    return out;
}

bool jobIsRunning(const JobFacts& job) {
    return job.read && job.hashExists && job.malformed.empty() && !job.finishedOnMs &&
           (job.active || job.processedOnMs);
}

}  // namespace

const ClientListSnapshot& JobQueueJudge::snapshotFor(const QueueMemory& memory) {
    const ClientListSnapshot& current = clients_.current();
    // An absence waiting for its second read gets it as soon as it is due, not a read later.
    if (memory.absentSince && current.steadyAt < *memory.absentSince + options_.confirmAbsence &&
        SteadyClock::now() >= *memory.absentSince + options_.confirmAbsence)
        return clients_.refresh();
    return current;
}

void JobQueueJudge::remember(QueueMemory& m, const ClientListSnapshot& s, bool present) {
    if (s.steadyAt <= m.lastSnapshot) return;  // this read was already counted
    m.lastSnapshot = s.steadyAt;
    if (present) {
        m.everSeen = true;
        m.lastPresent = s.at;
        m.absentSince.reset();
    } else if (!m.absentSince) {
        m.absentSince = s.steadyAt;
        m.absentSinceWall = s.at;
    }
}

std::vector<Evidence> JobQueueJudge::judge(const LockRecord& r, bool renewed) {
    auto key = parseJobLockKey(r.key);
    if (!key) return {evidenceNow("the key is not <prefix>:<queue>:<jobId>:lock")};
    std::vector<Evidence> out;
    const JobFacts job = readJob(connection_, *key);
    for (auto& line : describeJob(*key, job)) out.push_back(evidenceNow(std::move(line)));
    QueueMemory& memory = queues_[key->prefix + '\n' + key->queue];
    const ClientListSnapshot& snapshot = snapshotFor(memory);
    const std::string queue = "queue " + quoted(key->queue, 60);
    if (!snapshot.read) {
        out.push_back(
            evidenceNow(snapshot.whyNot + ": LockScope cannot see the " + queue + "'s workers"));
        return out;
    }
    auto workers = workersOf(*key, snapshot);
    remember(memory, snapshot, !workers.empty());
    const std::string name = quoted(workerConnectionName(*key), 60);
    if (!workers.empty()) {
        out.push_back(evidenceNow(std::to_string(workers.size()) +
                                  " connection(s) named as a worker of " + queue + " (" +
                                  describeWorkers(workers) + "): one of them may hold it"));
        return out;
    }
    const std::string absent = "no connection named as a worker of " + queue +
                               " (both libraries "
                               "name theirs " +
                               name + ")";
    const bool confirmed =
        memory.absentSince && snapshot.steadyAt >= *memory.absentSince + options_.confirmAbsence;
    if (renewed && !memory.everSeen) {
        out.push_back(evidenceNow(absent +
                                  ", yet the lock is renewed: names may be lost on the way (a "
                                  "proxy), so their absence proves nothing"));
    } else if (!jobIsRunning(job)) {
        out.push_back(evidenceNow(absent + ", but the job is not running by its own records, so "
                                           "LockScope does not call its lock an orphan"));
    } else if (!confirmed) {
        out.push_back(
            evidenceNow(absent + " since " + formatIsoInstant(memory.absentSinceWall) +
                        "; a second read confirms it (a reconnecting worker is briefly absent)"));
    } else {
        Evidence gone = evidenceNow(absent + " in CLIENT LIST read at " +
                                        formatIsoInstant(memory.absentSinceWall) + " and at " +
                                        formatIsoInstant(snapshot.at) +
                                        ": the worker that holds it has "
                                        "disconnected",
                                    Verdict::Gone);
        gone.seenAt = memory.absentSinceWall;
        gone.since = memory.lastPresent;
        out.push_back(std::move(gone));
    }
    return out;
}

std::optional<SteadyClock::time_point> JobQueueJudge::confirmableAt() const {
    std::optional<SteadyClock::time_point> earliest;
    for (const auto& [queue, m] : queues_) {
        if (!m.absentSince || m.lastSnapshot >= *m.absentSince + options_.confirmAbsence) continue;
        auto at = *m.absentSince + options_.confirmAbsence;
        if (!earliest || at < *earliest) earliest = at;
    }
    return earliest;
}

}  // namespace lockscope::inspect::liveness
