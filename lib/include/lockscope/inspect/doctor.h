#pragma once
// The guide's common mistakes as findings on live locks. Each rule has a stable id (used in
// --json "findings"), a one-paragraph explanation and the guide's fix.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lockscope/inspect/cluster/cluster_topology.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/server_facts.h"
#include "lockscope/inspect/value_classifier.h"

namespace lockscope::inspect {

enum class RuleId : std::uint8_t {
    NoTtl,              // "no-ttl"
    FixedValue,         // "fixed-value"
    CrossSlot,          // "cross-slot"
    RenewedPastTtl,     // "renewed-past-ttl"
    TtlHours,           // "ttl-hours"
    ReplicatedPrimary,  // "replicated"
    OnReplica,          // "on-replica"
    HeldTooLong,        // "held-too-long"
    FenceOnOtherNode,   // "fence-on-other-node"
    Orphaned,           // "orphaned": its holder is gone (holder_verdict.h), only on evidence
};
constexpr int kRuleCount = 10;

// How a finding is shown: Critical is a problem to act on (red), Warning deserves a look
// (amber), Info is worth knowing and not a fault (blue). A healthy watchdog-renewed lock
// shows only Info.
enum class Severity { Info, Warning, Critical };
const char* toString(Severity severity);  // "information", "warning", "problem"

struct Rule {
    RuleId id;
    const char* name;  // stable id, e.g. "no-ttl"
    Severity severity;
    const char* title;
    const char* explanation;  // one paragraph: what goes wrong
    const char* fix;          // the guide's fix
};

const Rule& rule(RuleId id);
const std::vector<Rule>& allRules();
constexpr std::uint32_t bit(RuleId id) {
    return 1u << static_cast<unsigned>(id);
}
std::vector<RuleId> rulesIn(std::uint32_t findings);
std::vector<std::string> ruleNames(std::uint32_t findings);
// The most severe finding in the set (Info when there is none).
Severity worstSeverity(std::uint32_t findings);
// Why a lock of this kind has no TTL: the libraries differ (redis-py's Lock(timeout=None)
// is a lock without TTL by design; node-redlock, Redisson and redsync always set one).
const char* noTtlCause(LockKind kind);

struct DoctorOptions {
    std::chrono::milliseconds longTtl{std::chrono::hours(1)};  // "TTL of hours" from here on
    // Held by one holder for more than this many times its TTL (seen through renewals).
    double renewedFactor = 3.0;
    // Held by one holder, through renewals, for longer than this: "held-too-long" (a
    // warning: the holder should have finished by now). The user sets it.
    std::chrono::milliseconds heldTooLong{std::chrono::minutes(30)};
    KeyLayout layout;  // where the fence counter of a lock lives
    // Set on a Redis Cluster: who serves which slot, for "fence-on-other-node".
    std::shared_ptr<const ClusterTopology> cluster;
    // The operator chose to read a replica (--scan-replicas, the window's switch): that is no
    // mistake, so "on-replica" (point LockScope at the primary) is not said; the lock lives
    // on a primary with a replica, so "replicated" is.
    bool replicaOnPurpose = false;
};

class Doctor {
  public:
    explicit Doctor(DoctorOptions options = {}) : options_(std::move(options)) {}

    // The findings of one lock, as a bit set of RuleId, judged at `now`.
    std::uint32_t examine(const LockRecord& record, const ServerFacts& server,
                          SteadyClock::time_point now) const;
    // Sets record.findings on every record.
    void annotate(std::vector<LockRecord>& records, const ServerFacts& server) const;

  private:
    DoctorOptions options_;
};

}  // namespace lockscope::inspect
