#pragma once
// The verdict lines for a BullMQ or Bull job lock (job_queue_evidence.h has the reads). A lock
// is gone only when its job is running by its own hash and list (processedOn, no finishedOn,
// in `active`), and no connection named as a worker of its queue was there in two CLIENT LIST
// reads `confirmAbsence` apart; a connection of that name (even a forged one), a CLIENT LIST
// that cannot be read, or a job hash that is missing or malformed leave it unknown.
// Internal to lockscope_inspect.

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "client_list.h"
#include "lockscope/connection.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/liveness/liveness_reader.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect::liveness {

class JobQueueJudge {
  public:
    JobQueueJudge(Connection& connection, ClientListReader& clients, const LivenessOptions& options)
        : connection_(connection), clients_(clients), options_(options) {}

    // renewed: a renewal of this holder was seen (by the reader's renewal tracker).
    std::vector<Evidence> judge(const LockRecord& record, bool renewed);

    // When the earliest absence waiting for its second read can be confirmed (nullopt: none).
    std::optional<SteadyClock::time_point> confirmableAt() const;

  private:
    struct QueueMemory {
        std::optional<SteadyClock::time_point> absentSince;
        WallClock::time_point absentSinceWall;
        std::optional<WallClock::time_point> lastPresent;
        bool everSeen = false;  // a worker connection of this queue was seen named
        SteadyClock::time_point lastSnapshot;
    };
    const ClientListSnapshot& snapshotFor(const QueueMemory& memory);
    void remember(QueueMemory& memory, const ClientListSnapshot& snapshot, bool present);

    Connection& connection_;
    ClientListReader& clients_;
    const LivenessOptions& options_;
    std::unordered_map<std::string, QueueMemory> queues_;
};

}  // namespace lockscope::inspect::liveness
