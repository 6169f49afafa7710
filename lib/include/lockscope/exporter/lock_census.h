#pragma once
// One pass over the locks of the servers, reduced to what the exporter serves: counts per
// (instance, kind), per finding, age and TTL histograms, and a few per-key series for the
// keys the operator opted in (--key-labels). No record is kept or copied: the census reads
// the watch's table as it is, and handoffs and renewals are the changes the table counted
// (LockTable::changeCounts), so a census costs no memory per lock (issue 37 item 7).
// Pure and Qt-free; no prometheus types here.

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/lock_table.h"

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
// Adds from's observations to into (the same bounds).
void merge(Histogram& into, const Histogram& from);

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

// What one node's locks add up to, by kind, while a census reads the node: counted in arrays,
// turned into labelled series once per node (not a map lookup by three strings per lock).
struct KindTally {
    std::uint64_t locks = 0, withoutTtl = 0, orphaned = 0, holderUnknown = 0;
    std::array<std::uint64_t, inspect::kRuleCount> findings{};
    Histogram age, ttl;
};

class CensusBuilder {
  public:
    // The findings of a record as the census judges them now (the doctor's examine); without
    // one the record's own findings (the watch's) are counted.
    using Examine = std::function<std::uint32_t(const inspect::LockRecord&)>;

    explicit CensusBuilder(std::vector<std::string> keyLabelPatterns, Examine examine = {},
                           std::size_t maxKeySeries = 100);

    // Counts one record seen at `now`, as its watch's table keeps it (its holder's age from
    // lastChange, the time this holder was first seen). Records of kind NotALock are not
    // locks and are skipped.
    void add(const inspect::LockRecord& record, SteadyClock::time_point now,
             std::chrono::system_clock::time_point wallNow);
    // Holder changes and renewals a node's table merged since the last census, by kind.
    void addChanges(const std::string& node, const inspect::ChangeCounts& since);
    // The instance (the -u URL) the next records belong to; without it a record's instance
    // is its node.
    void instanceStarted(std::string instance);
    void instanceDone(const std::string& instance, bool up, double scanSeconds);

    CensusResult& result();

  private:
    // Turns the tallies of the node being read into the result's series.
    void flushNode();
    InstanceKind seriesOf(inspect::LockKind kind) const;

    std::vector<std::string> keyPatterns_;
    Examine examine_;
    std::size_t maxKeySeries_;
    std::string instance_;
    std::string node_;  // the node whose locks are tallied now
    std::array<KindTally, inspect::kLockKindCount> tally_{};
    CensusResult result_;
};

// Seconds the lock has been held, from the best evidence: the time its holder wrote into it
// (ShedLock, redis-py's uuid1), else how long this holder has been seen (lastChange).
double ageSeconds(const inspect::LockRecord& record, SteadyClock::time_point now,
                  std::chrono::system_clock::time_point wallNow);

}  // namespace lockscope::exporter
