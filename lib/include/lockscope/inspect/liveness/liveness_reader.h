#pragma once
// Judges whether each lock's holder is alive (holder_verdict.h) from what the server shows:
// renewals (any format, seen across passes), BullMQ and Bull job locks (the job hash, the
// active list, the queue's named worker connections in CLIENT LIST), sidekiq-unique-jobs'
// LOCKED job ids (Sidekiq's processes, their heartbeats and running jobs, its queues, schedule,
// retry and dead sets). Reads stay small: CLIENT LIST and Sidekiq's process list at most once
// per `clientListEvery` / `sidekiqEvery` for every lock of a pass, and at most
// `maxLookupsPerPass` job look-ups per pass; what is over the budget stays unknown, saying so.
// Keep one reader per connection across passes: what it saw before (a renewal, a worker that
// was connected, where a job ran) is evidence too. Not thread-safe, like the connection.

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

class KeyReads;  // inspect/liveness/key_reads.h
class ClusterRouter;

struct LivenessOptions {
    std::chrono::milliseconds clientListEvery{10'000};
    std::chrono::milliseconds sidekiqEvery{5'000};
    // A job queue worker's absence must last this long, over two CLIENT LIST reads, before
    // its lock is called gone (a reconnecting worker is briefly absent).
    std::chrono::milliseconds confirmAbsence{3'000};
    // A Sidekiq job found nowhere (not running, queued, scheduled, retried or dead) must stay
    // nowhere this long (a job that just started shows at its process's next heartbeat).
    std::chrono::milliseconds sidekiqNowhereFor{30'000};
    std::size_t maxLookupsPerPass = 2'000;
    std::size_t maxSidekiqProcesses = 1'000;
    std::size_t maxJobsPerPlace = 10'000;
    // One look only (the CLI's list and doctor): wait out confirmAbsence once, when a lock
    // would be gone but for the second read, so a single pass can still say gone.
    bool waitToConfirm = false;
    // Remember each key's PTTL to see renewals across passes (a watcher); one look cannot see
    // one, so a single listing of a large keyspace saves the memory.
    bool trackRenewals = true;
    // A watch (ServerWatch::liveness): the rows a read changed are judged at once; the others,
    // whose holder may have died while their key stood still, again every `reassessEvery`,
    // at most `maxRowsPerTurn` of them per read (a million locks are judged over many reads).
    std::chrono::milliseconds reassessEvery{2'000};
    std::size_t maxRowsPerTurn = 20'000;
    // What a watch's table keeps of each verdict: the verdict with its evidence lines, or
    // (false) the verdict alone, one object shared by every lock of that verdict. For a front
    // end that only counts verdicts (the exporter): the lines cost about 220 bytes a lock.
    bool keepEvidence = true;
    // On a Redis Cluster: where keys of other slots are read (Sidekiq's processes, queues and
    // sets), each from its slot's owner; ServerWatch sets its router's. Null: the reader's
    // connection, and a key it does not serve leaves that evidence incomplete (unknown).
    std::shared_ptr<KeyReads> keysElsewhere;
};

// LivenessOptions::keysElsewhere on a Redis Cluster: each key read from the primary that
// serves its slot, through the router (whose topology was asked already, isCluster()). Used
// on one thread at a time, like the router.
std::shared_ptr<KeyReads> keyReadsThrough(std::shared_ptr<ClusterRouter> router);

class LivenessReader {
  public:
    // The connection must outlive the reader.
    explicit LivenessReader(Connection& connection, LivenessOptions options = {});
    ~LivenessReader();
    LivenessReader(const LivenessReader&) = delete;
    LivenessReader& operator=(const LivenessReader&) = delete;

    // Sets record.liveness on every record of the batch (kinds that are no lock are skipped).
    void assess(std::vector<LockRecord>& batch);
    // Judges rows where they are (a watch's table), changing none of them: onVerdict(i, v)
    // for each row i that holds a lock. Without keepEvidence, v is the verdict alone, one
    // object shared per verdict (sharedVerdict), so a row judged as before costs no object;
    // with it, one verdict per row (or one shared by every row with nothing to go on).
    // No waitToConfirm here: a watch looks again at its next read.
    using OnVerdict = std::function<void(std::size_t row, std::shared_ptr<const HolderVerdict>)>;
    void judge(std::span<const LockRecord* const> rows, const OnVerdict& onVerdict);
    // CLIENT LIST reads so far (the load test counts them).
    std::uint64_t clientListReads() const;

  private:
    struct State;
    // judge() with every verdict whole (bare false) or alone (true).
    void judgeRows(std::span<const LockRecord* const> rows, bool bare, const OnVerdict& onVerdict);
    std::vector<Evidence> gather(const LockRecord& r, SteadyClock::time_point now,
                                 WallClock::time_point wallNow, bool& fromRecordAlone);
    std::unique_ptr<State> state_;
};

}  // namespace lockscope::inspect
