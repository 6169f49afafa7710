#pragma once
// The verdict lines for LockScope's own lock (own_lock_evidence.h has the reads). Alive: a
// connection with the name its holder record gives is in CLIENT LIST. Gone: the record names
// the library's own connection name (lockscope:<host>:<pid>, for the record's host and pid),
// and that name was absent from two CLIENT LIST reads at least `confirmAbsence` apart while
// the lease was not renewed in between. Anything else — no record, a record for another
// token or with junk fields, a name the user chose, no name at all, CLIENT denied, a renewal
// seen — leaves it unknown (or alive), saying why. A forged connection of the holder's name
// can only hold `gone` back. Internal to lockscope_inspect.

#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "client_list.h"
#include "lockscope/connection.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/liveness/liveness_reader.h"
#include "lockscope/inspect/lock_record.h"
#include "own_lock_evidence.h"

namespace lockscope::inspect::liveness {

class OwnLockJudge {
  public:
    OwnLockJudge(Connection& connection, ClientListReader& clients, const LivenessOptions& options)
        : connection_(connection), clients_(clients), options_(options) {}

    // Reads the holder records of the batch's own locks (at most `budget` of them) in a few
    // pipelined round trips; judge() then uses them. Returns how many it read.
    std::size_t prefetch(std::span<const LockRecord* const> batch, std::size_t budget);
    // The lock must have been prefetched (else: unknown, "not looked up"). fromRecordAlone is
    // set when the answer holds for as long as the record stays the same: the key has no
    // hash tag, or there is no holder record (the acquire script writes it with the lock).
    std::vector<Evidence> judge(const LockRecord& record, bool& fromRecordAlone);

    // When the earliest absence waiting for its second read can be confirmed (nullopt: none).
    std::optional<SteadyClock::time_point> confirmableAt() const;

  private:
    // One holder (lock key + token) whose connection was missing.
    struct Absence {
        std::string token;
        SteadyClock::time_point since;
        WallClock::time_point sinceWall;
        std::optional<SteadyClock::time_point> leaseEnd;  // by the PTTL read then
        SteadyClock::time_point lastSnapshot;
    };
    std::vector<Evidence> judgeConnection(const LockRecord& record, const OwnHolder& holder);
    std::vector<Evidence> judgeAbsence(const LockRecord& record, const std::string& name,
                                       const ClientListSnapshot& snapshot);

    Connection& connection_;
    ClientListReader& clients_;
    const LivenessOptions& options_;
    std::unordered_map<std::string, Absence> absences_;      // by lock key
    std::unordered_map<std::string, OwnHolder> prefetched_;  // by holder key, this pass
    std::unordered_map<std::string, WallClock::time_point> lastPresent_;  // by connection name
};

}  // namespace lockscope::inspect::liveness
