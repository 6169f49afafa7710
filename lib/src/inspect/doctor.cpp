#include "lockscope/inspect/doctor.h"

#include <algorithm>

#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/value_classifier.h"

namespace lockscope::inspect {
namespace {

const std::vector<Rule> kRules = {
    {RuleId::NoTtl, "no-ttl", Severity::Critical, "Lock without a TTL",
     "This lock never expires: if its holder is gone, it is an orphan that blocks every other "
     "client forever, and nothing will free it on its own. What makes one depends on the client "
     "(see below): a lock created with no timeout, a crash between SETNX and EXPIRE sent as two "
     "commands, or a PERSIST (or a SET without PX) by someone else afterwards.",
     "Acquire with one atomic command, SET key token NX PX ttl. For this orphan, check that its "
     "holder is gone, then add a TTL only if unchanged (expire) or release it by its token."},
    {RuleId::FixedValue, "fixed-value", Severity::Critical, "Fixed value instead of a token",
     "The value is a constant such as \"1\", so holders cannot be told apart. A client whose lock "
     "expired will delete the next holder's lock with its DEL, letting a third client in: the "
     "guide's nightly report job sent finance three e-mails this way.",
     "Store a random token per acquisition (128 bits from a CSPRNG) and release with the Lua "
     "compare-and-delete script, so a client can only delete its own lock."},
    {RuleId::CrossSlot, "cross-slot", Severity::Warning,
     "Lock and fence counter in different hash slots",
     "The lock key and its fence counter hash to different Redis Cluster slots. On a cluster, one "
     "Lua script cannot touch both, so the acquire-and-increment cannot be atomic there.",
     "Put the resource in a hash tag in both names, lock:{name} and fence:{name}, so they share a "
     "slot."},
    {RuleId::RenewedPastTtl, "renewed-past-ttl", Severity::Info,
     "Held far longer than its TTL through renewals",
     "One holder has kept this lock many times longer than its TTL by renewing it. That is fine "
     "for "
     "a long job that renews while it still owns the lock, but a watchdog that renews after the "
     "work is stuck (or after unlock) keeps everyone else out. A TTL never guarantees exclusivity: "
     "a paused holder can still act after its lease ran out.",
     "Renew only between chunks of real progress and stop work when a renewal returns 0; protect "
     "the resource with the fencing token so a stale holder's writes are rejected."},
    {RuleId::TtlHours, "ttl-hours", Severity::Warning, "TTL of hours",
     "The TTL is an hour or more. If the holder crashes, everyone waits that long. Long TTLs are "
     "usually chosen to avoid renewal, trading liveness for simplicity.",
     "Pick a TTL a little longer than the normal work plus margin, short enough that a crashed "
     "holder blocks others only briefly, and renew for long work."},
    {RuleId::ReplicatedPrimary, "replicated", Severity::Info, "Lock on a primary with replicas",
     "Replication is asynchronous: a failover can promote a replica that never saw this lock, and "
     "a second client acquires it while the first still believes it holds it (the guide's seats "
     "sold twice).",
     "Make the resource authoritative with a fencing token or a unique constraint; WAIT 1 50 after "
     "acquiring narrows the window but does not close it. Redlock uses independent primaries."},
    {RuleId::OnReplica, "on-replica", Severity::Warning, "Lock seen on a read-only replica",
     "This server is a replica. Its copy of the lock lags the primary and may be missing or stale; "
     "locks must be acquired, inspected and released on the primary.",
     "Point LockScope (and the clients) at the primary."},
    {RuleId::HeldTooLong, "held-too-long", Severity::Warning,
     "Renewed for longer than the job should take",
     "One holder has kept renewing this lock for longer than the threshold you set for a job. "
     "Renewing is healthy while the work progresses; a watchdog that keeps renewing for a stuck "
     "or finished holder (Redisson #7272) keeps everyone else out.",
     "Check that the holder is still working. If it is stuck, stop it: its renewals stop and the "
     "lock expires. Raise the threshold in the settings if such jobs are normal."},
    {RuleId::FenceOnOtherNode, "fence-on-other-node", Severity::Warning,
     "Fence counter on another cluster node",
     "On this Redis Cluster the lock key and its fence counter are served by different nodes. "
     "The acquire cannot set the lock and increment the counter in one script, and a failover "
     "of one node can lose the lock while the counter survives, or the reverse.",
     "Put the resource in a hash tag in both names, lock:{name} and fence:{name}: one slot, one "
     "node, one script."},
    {RuleId::Orphaned, "orphaned", Severity::Critical, "Orphaned lock: its holder is gone",
     "LockScope found positive evidence that whoever holds this lock is gone (its evidence says "
     "which: a job queue worker that disconnected, a Sidekiq process that stopped beating, a job "
     "in the dead set). Nothing will release it before its TTL runs out, and without a TTL never; "
     "everyone waiting for it waits that long.",
     "Read the evidence, then release it by its token (lockscope-cli release KEY --token T, or "
     "the window's Release): the release deletes it only if the holder is still the one seen."},
};

}  // namespace

const char* toString(Severity severity) {
    switch (severity) {
        case Severity::Critical:
            return "problem";
        case Severity::Warning:
            return "warning";
        case Severity::Info:
            break;
    }
    return "information";
}

Severity worstSeverity(std::uint32_t findings) {
    Severity worst = Severity::Info;
    for (RuleId id : rulesIn(findings)) worst = std::max(worst, rule(id).severity);
    return worst;
}

const char* noTtlCause(LockKind kind) {
    switch (kind) {
        case LockKind::RedisPy:
            return "redis-py: Lock(name, timeout=None), the default, creates a lock with no TTL "
                   "at all; if the process dies, the lock stays until someone deletes it. Give "
                   "the Lock a timeout (and extend it for long work).";
        case LockKind::NodeRedlock:
        case LockKind::Redsync:
        case LockKind::RedisPlusPlus:
        case LockKind::RedissonLock:
            return "This client always sets the TTL in the same command as the lock (SET NX PX "
                   "or a Lua script), so it did not create this: a PERSIST, a SET without PX by "
                   "another tool or script, or a RESTORE without TTL removed it afterwards.";
        case LockKind::FixedValue:
            return "A fixed value with no TTL is the guide's broken pattern: SETNX followed by "
                   "EXPIRE as two commands, and a crash between them.";
        default:
            break;
    }
    return "Usually SETNX followed by EXPIRE as two commands and a crash between them, or a "
           "lock created with no timeout, or a PERSIST by someone else.";
}

const Rule& rule(RuleId id) {
    return kRules[static_cast<std::size_t>(id)];
}
const std::vector<Rule>& allRules() {
    return kRules;
}

std::vector<RuleId> rulesIn(std::uint32_t findings) {
    std::vector<RuleId> out;
    for (const auto& r : kRules)
        if (findings & bit(r.id)) out.push_back(r.id);
    return out;
}

std::vector<std::string> ruleNames(std::uint32_t findings) {
    std::vector<std::string> out;
    for (RuleId id : rulesIn(findings)) out.emplace_back(rule(id).name);
    return out;
}

std::uint32_t Doctor::examine(const LockRecord& r, const ServerFacts& server,
                              SteadyClock::time_point now) const {
    if (r.kind == LockKind::NotALock || r.kind == LockKind::RedissonFenceToken) return 0;
    std::uint32_t f = 0;
    bool holderKey = r.type == ValueType::String || r.type == ValueType::Hash;
    if (holderKey && r.pttlMs == -1) f |= bit(RuleId::NoTtl);
    if (r.kind == LockKind::FixedValue) f |= bit(RuleId::FixedValue);
    if (r.fence) {
        auto fenceKey = fenceKeyFor(r.key, options_.layout);
        if (fenceKey && keyHashSlot(r.key) != keyHashSlot(*fenceKey)) {
            f |= bit(RuleId::CrossSlot);
            const auto* cluster = options_.cluster.get();
            const ClusterNode* lockNode =
                cluster ? cluster->ownerOfSlot(keyHashSlot(r.key)) : nullptr;
            const ClusterNode* fenceNode =
                cluster ? cluster->ownerOfSlot(keyHashSlot(*fenceKey)) : nullptr;
            if (lockNode && fenceNode && lockNode != fenceNode) f |= bit(RuleId::FenceOnOtherNode);
        }
    }
    if (r.pttlMs >= options_.longTtl.count()) f |= bit(RuleId::TtlHours);
    if (r.renewals > 0 && r.pttlMs > 0) {
        auto held =
            std::chrono::duration_cast<std::chrono::milliseconds>(now - r.lastChange).count();
        if (static_cast<double>(held) > options_.renewedFactor * static_cast<double>(r.pttlMs))
            f |= bit(RuleId::RenewedPastTtl);
        if (held > options_.heldTooLong.count()) f |= bit(RuleId::HeldTooLong);
    }
    if (r.liveness && r.liveness->verdict == Verdict::Gone) f |= bit(RuleId::Orphaned);
    if (server.role == ServerRole::Replica)
        f |= bit(options_.replicaOnPurpose ? RuleId::ReplicatedPrimary : RuleId::OnReplica);
    if (server.role == ServerRole::Primary && server.connectedReplicas > 0)
        f |= bit(RuleId::ReplicatedPrimary);
    return f;
}

void Doctor::annotate(std::vector<LockRecord>& records, const ServerFacts& server) const {
    auto now = SteadyClock::now();
    for (auto& r : records) r.findings = examine(r, server, now);
}

}  // namespace lockscope::inspect
