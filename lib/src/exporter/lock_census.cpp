#include "lockscope/exporter/lock_census.h"

#include <fnmatch.h>

#include <algorithm>

#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/inspect/liveness/holder_verdict.h"

namespace lockscope::exporter {
namespace {

double seconds(SteadyClock::duration d) {
    return std::max(0.0, std::chrono::duration<double>(d).count());
}

}  // namespace

const std::vector<double>& ageBuckets() {
    static const std::vector<double> b{1, 5, 15, 30, 60, 300, 600, 1800, 3600, 7200, 21600, 86400};
    return b;
}

const std::vector<double>& ttlBuckets() {
    static const std::vector<double> b{0.1, 0.5, 1, 5, 10, 30, 60, 300, 600, 3600, 86400};
    return b;
}

void merge(Histogram& into, const Histogram& from) {
    if (from.count == 0) return;
    if (into.counts.empty()) into.counts.assign(from.counts.size(), 0);
    for (std::size_t i = 0; i < from.counts.size() && i < into.counts.size(); ++i)
        into.counts[i] += from.counts[i];
    into.sum += from.sum;
    into.count += from.count;
}

void Histogram::observe(double value, const std::vector<double>& bounds) {
    if (counts.empty()) counts.assign(bounds.size() + 1, 0);
    auto at = std::lower_bound(bounds.begin(), bounds.end(), value) - bounds.begin();
    ++counts[static_cast<std::size_t>(at)];
    sum += value;
    ++count;
}

double ageSeconds(const inspect::LockRecord& r, SteadyClock::time_point now,
                  std::chrono::system_clock::time_point wallNow) {
    if (auto facts = inspect::decodeHolder(r); facts.since && *facts.since <= wallNow)
        return std::chrono::duration<double>(wallNow - *facts.since).count();
    return seconds(now - r.lastChange);
}

CensusBuilder::CensusBuilder(std::vector<std::string> keyLabelPatterns, Examine examine,
                             std::size_t maxKeySeries)
    : keyPatterns_(std::move(keyLabelPatterns)),
      examine_(std::move(examine)),
      maxKeySeries_(maxKeySeries) {}

InstanceKind CensusBuilder::seriesOf(inspect::LockKind kind) const {
    return {instance_.empty() ? node_ : instance_, node_, inspect::toString(kind)};
}

void CensusBuilder::instanceStarted(std::string instance) {
    flushNode();
    instance_ = std::move(instance);
}

void CensusBuilder::add(const inspect::LockRecord& r, SteadyClock::time_point now,
                        std::chrono::system_clock::time_point wallNow) {
    if (r.kind == inspect::LockKind::NotALock) return;
    if (const std::string& node = r.instanceName(); node != node_) {
        flushNode();
        node_ = node;
    }
    KindTally& t = tally_[static_cast<std::size_t>(r.kind)];
    ++t.locks;
    if (!r.hasTtl()) ++t.withoutTtl;
    if (r.liveness && r.liveness->verdict == inspect::Verdict::Gone) ++t.orphaned;
    if (r.liveness && r.liveness->verdict == inspect::Verdict::Unknown) ++t.holderUnknown;
    const std::uint32_t findings = examine_ ? examine_(r) : r.findings;
    for (int rule = 0; rule < inspect::kRuleCount; ++rule)
        if (findings & (1u << static_cast<unsigned>(rule))) ++t.findings[std::size_t(rule)];
    const double age = ageSeconds(r, now, wallNow);
    t.age.observe(age, ageBuckets());
    if (r.hasTtl()) t.ttl.observe(double(r.pttlMs) / 1000.0, ttlBuckets());
    if (result_.keys.size() < maxKeySeries_)
        for (const auto& p : keyPatterns_)
            if (fnmatch(p.c_str(), r.key.c_str(), 0) == 0) {
                const InstanceKind ik = seriesOf(r.kind);
                result_.keys.push_back({ik.instance, ik.node, r.key, ik.kind,
                                        r.hasTtl() ? double(r.pttlMs) / 1000.0 : -1, age});
                break;
            }
}

void CensusBuilder::flushNode() {
    for (std::size_t kind = 0; kind < tally_.size(); ++kind) {
        KindTally& t = tally_[kind];
        if (t.locks == 0) continue;
        const InstanceKind ik = seriesOf(static_cast<inspect::LockKind>(kind));
        result_.locks[ik] += t.locks;
        if (t.withoutTtl) result_.withoutTtl[ik] += t.withoutTtl;
        if (t.orphaned) result_.orphaned[ik] += t.orphaned;
        if (t.holderUnknown) result_.holderUnknown[ik] += t.holderUnknown;
        for (int rule = 0; rule < inspect::kRuleCount; ++rule)
            if (const auto n = t.findings[std::size_t(rule)])
                result_.findings[{ik, inspect::rule(static_cast<inspect::RuleId>(rule)).name}] += n;
        merge(result_.age[ik], t.age);
        if (t.ttl.count) merge(result_.ttl[ik], t.ttl);
        t = KindTally{};
    }
}

void CensusBuilder::addChanges(const std::string& node, const inspect::ChangeCounts& since) {
    flushNode();
    node_ = node;
    for (std::size_t kind = 0; kind < inspect::kLockKindCount; ++kind) {
        if (static_cast<inspect::LockKind>(kind) == inspect::LockKind::NotALock) continue;
        const InstanceKind ik = seriesOf(static_cast<inspect::LockKind>(kind));
        if (since.handoffs[kind]) result_.handoffs[ik] += since.handoffs[kind];
        if (since.renewals[kind]) result_.renewals[ik] += since.renewals[kind];
    }
}

CensusResult& CensusBuilder::result() {
    flushNode();
    return result_;
}

void CensusBuilder::instanceDone(const std::string& instance, bool up, double scanSeconds) {
    result_.up[instance] = up;
    result_.scanSeconds[instance] = scanSeconds;
}

}  // namespace lockscope::exporter
