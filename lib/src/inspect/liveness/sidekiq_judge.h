#pragma once
// The verdict lines for a sidekiq-unique-jobs LOCKED hash (sidekiq_evidence.h has the reads):
// each job id it holds is looked up among the live processes' work, then in the queues,
// `schedule`, `retry` and `dead`. Alive: running on a process that beats, or waiting to run.
// Gone: in the dead set; or it ran on a process whose heartbeat has since expired (no beat for
// 60 s) and it is nowhere else; or it stayed nowhere for `sidekiqNowhereFor`. A job in the work
// of two live processes, a beat dated in the future, or a search that could not look
// everywhere stay unknown. Internal to lockscope_inspect.

#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/liveness/liveness_reader.h"
#include "lockscope/inspect/lock_record.h"
#include "sidekiq_evidence.h"

namespace lockscope::inspect::liveness {

// A sidekiq-unique-jobs LOCKED hash (job id -> time): the record's jobs are its fields.
bool isSidekiqLocked(const LockRecord& record);

class SidekiqJudge {
  public:
    SidekiqJudge(Connection& connection, const LivenessOptions& options)
        : local_(connection), options_(options) {}

    // Reads what the batch's LOCKED hashes need (at most the options' budget of jobs).
    void beginPass(std::span<const LockRecord* const> batch);
    std::vector<Evidence> judge(const LockRecord& record);

  private:
    struct JobMemory {
        std::size_t process = 0;  // where it last ran, in lastProcesses_
        std::string identity;
        std::string where;
        std::optional<double> lastBeat;
        std::optional<SteadyClock::time_point> nowhereSince;
        WallClock::time_point nowhereSinceWall;
    };
    // One job id's lines, each pointing the way that job points.
    std::vector<Evidence> judgeJob(const std::string& jid);
    std::optional<std::vector<Evidence>> runningEvidence(const std::string& jid);
    std::optional<std::vector<Evidence>> placeEvidence(const std::string& jid);
    std::vector<Evidence> nowhereEvidence(const std::string& jid);

    // Sidekiq's keys: through the cluster's router when there is one, else this connection.
    KeyReads& reads() { return options_.keysElsewhere ? *options_.keysElsewhere : local_; }

    ConnectionKeyReads local_;
    const LivenessOptions& options_;
    SidekiqSnapshot snapshot_;
    bool snapshotRead_ = false;
    PlaceSearch places_;
    std::set<std::string> checked_;  // the job ids this pass may look up
    std::unordered_map<std::string, JobMemory> jobs_;
};

}  // namespace lockscope::inspect::liveness
