#pragma once
// One pass over the locks of the servers, reduced to what the exporter serves: counts per
// (instance, kind), per finding, age and TTL histograms, and a few per-key series for the
// keys the operator opted in (--key-labels). No record is kept: memory depends on the number
// of live locks (one small entry each, to see handoffs and renewals between passes), not on
// how many keys came and went. Pure and Qt-free; no prometheus types here.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::exporter {

using inspect::SteadyClock;

// Upper bounds (seconds) of the histogram buckets; +Inf is implied.
const std::vector<double>& ageBuckets();
const std::vector<double>& ttlBuckets();

struct Histogram {
    std::vector<std::uint64_t> counts;  // per bucket, not cumulative; last = +Inf
    double sum = 0;
    std::uint64_t count = 0;
    void observe(double value, const std::vector<double>& bounds);
};

struct KeySeries {  // one opted-in key
    std::string instance, node, key, kind;
    double ttlSeconds = -1;  // -1: no TTL
    double ageSeconds = 0;
};

// The labels of a per-kind series: the instance the operator named (-u), the node the locks
// live on (the same address on a plain server; each node's address on a cluster, so a shard's
// stuck locks are told apart), and the kind.
struct InstanceKind {
    std::string instance, node, kind;
    // Written out: clang-tidy 14 misreads a defaulted <=> (modernize-use-nullptr).
    bool operator<(const InstanceKind& o) const {
        return std::tie(instance, node, kind) < std::tie(o.instance, o.node, o.kind);
    }
    bool operator==(const InstanceKind& o) const {
        return std::tie(instance, node, kind) == std::tie(o.instance, o.node, o.kind);
    }
};

// What one complete census saw. Counters (handoffs, renewals, scrape errors) accumulate over
// the exporter's life and live in the exporter, not here.
struct CensusResult {
    std::map<InstanceKind, std::uint64_t> locks, withoutTtl;
    // Whose holder is gone (an orphan, on positive evidence) or cannot be judged (unknown).
    std::map<InstanceKind, std::uint64_t> orphaned, holderUnknown;
    std::map<std::pair<InstanceKind, std::string>, std::uint64_t> findings;  // with the rule
    std::map<InstanceKind, Histogram> age, ttl;
    std::map<InstanceKind, std::uint64_t> handoffs, renewals;  // seen in this pass
    std::map<std::string, double> scanSeconds;                 // per instance
    std::map<std::string, bool> up;                            // per instance
    std::vector<KeySeries> keys;
};

// What the tracker remembers of a lock between passes: 24 bytes and a hash key per live lock.
struct TrackedLock {
    std::uint64_t holder = 0;  // hash of the token / fields
    std::int64_t pttlMs = -1;
    SteadyClock::time_point seenAt;
    SteadyClock::time_point heldSince;  // first pass that saw this holder
};

class CensusBuilder {
  public:
    // The findings of a record once its tracked facts are set (the doctor's examine).
    using Examine = std::function<std::uint32_t(const inspect::LockRecord&)>;

    // previous: the tracker of the last complete pass (moved in), to count handoffs and
    // renewals and to date holders that carry no time of their own.
    CensusBuilder(std::unordered_map<std::uint64_t, TrackedLock> previous,
                  std::vector<std::string> keyLabelPatterns, Examine examine = {},
                  std::size_t maxKeySeries = 100);

    // Adds one record seen at `now`: sets its firstSeen/lastChange/renewals from the tracker,
    // then its findings (when an examiner is given), then counts it. Records of kind
    // NotALock are not locks and are skipped.
    void add(inspect::LockRecord& record, SteadyClock::time_point now,
             std::chrono::system_clock::time_point wallNow);
    // The instance (the -u URL) the next records belong to; without it a record's instance
    // is its node.
    void instanceStarted(std::string instance) { instance_ = std::move(instance); }
    void instanceDone(const std::string& instance, bool up, double scanSeconds);

    CensusResult& result() { return result_; }
    // The tracker for the next pass: only the locks this pass saw.
    std::unordered_map<std::uint64_t, TrackedLock> takeTracker() { return std::move(next_); }

  private:
    std::unordered_map<std::uint64_t, TrackedLock> previous_, next_;
    std::vector<std::string> keyPatterns_;
    Examine examine_;
    std::size_t maxKeySeries_;
    std::string instance_;
    CensusResult result_;
};

// Seconds the lock has been held, from the best evidence: the time its holder wrote into it
// (ShedLock, redis-py's uuid1), else how long this holder has been seen (firstSeen).
double ageSeconds(const inspect::LockRecord& record, SteadyClock::time_point now,
                  std::chrono::system_clock::time_point wallNow);

}  // namespace lockscope::exporter
