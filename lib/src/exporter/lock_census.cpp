#include "lockscope/exporter/lock_census.h"

#include <fnmatch.h>

#include <algorithm>
#include <functional>

#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/formats/holder_facts.h"
#include "lockscope/inspect/liveness/holder_verdict.h"

namespace lockscope::exporter {
namespace {

std::uint64_t keyHash(const inspect::LockRecord& r) {
    std::uint64_t h = std::hash<std::string>{}(r.key);
    return h ^ (std::hash<std::string>{}(r.instanceName()) * 0x9e3779b97f4a7c15ULL);
}

std::uint64_t holderHash(const inspect::LockRecord& r) {
    std::uint64_t h = std::hash<std::string>{}(r.token);
    for (const auto& f : r.fields)
        h = h * 31 + std::hash<std::string>{}(f.field) * 7 + std::hash<std::string>{}(f.value);
    return h;
}

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
    return seconds(now - r.firstSeen);
}

CensusBuilder::CensusBuilder(std::unordered_map<std::uint64_t, TrackedLock> previous,
                             std::vector<std::string> keyLabelPatterns, Examine examine,
                             std::size_t maxKeySeries)
    : previous_(std::move(previous)),
      keyPatterns_(std::move(keyLabelPatterns)),
      examine_(std::move(examine)),
      maxKeySeries_(maxKeySeries) {
    next_.reserve(previous_.size());
}

void CensusBuilder::add(inspect::LockRecord& r, SteadyClock::time_point now,
                        std::chrono::system_clock::time_point wallNow) {
    if (r.kind == inspect::LockKind::NotALock) return;
    const std::string& node = r.instanceName();
    const InstanceKind ik{instance_.empty() ? node : instance_, node, inspect::toString(r.kind)};
    const std::uint64_t id = keyHash(r), holder = holderHash(r);
    TrackedLock t{holder, r.pttlMs, now, now};
    if (auto it = previous_.find(id); it != previous_.end()) {
        const TrackedLock& before = it->second;
        if (before.holder != holder) {
            ++result_.handoffs[ik];
        } else {
            t.heldSince = before.heldSince;
            // Renewed: more time left than the last pass left it, counted down since.
            auto elapsed =
                std::chrono::duration_cast<std::chrono::milliseconds>(now - before.seenAt);
            if (r.pttlMs >= 0 && before.pttlMs >= 0 &&
                r.pttlMs > before.pttlMs - elapsed.count() + 50) {
                ++result_.renewals[ik];
                r.renewals = 1;
            }
        }
    }
    r.firstSeen = r.lastChange = t.heldSince;
    next_[id] = t;
    if (examine_) r.findings = examine_(r);

    ++result_.locks[ik];
    if (!r.hasTtl()) ++result_.withoutTtl[ik];
    if (r.liveness && r.liveness->verdict == inspect::Verdict::Gone) ++result_.orphaned[ik];
    if (r.liveness && r.liveness->verdict == inspect::Verdict::Unknown) ++result_.holderUnknown[ik];
    double age = ageSeconds(r, now, wallNow);
    result_.age[ik].observe(age, ageBuckets());
    if (r.hasTtl()) result_.ttl[ik].observe(r.pttlMs / 1000.0, ttlBuckets());
    for (const auto& name : inspect::ruleNames(r.findings)) ++result_.findings[{ik, name}];
    if (result_.keys.size() < maxKeySeries_)
        for (const auto& p : keyPatterns_)
            if (fnmatch(p.c_str(), r.key.c_str(), 0) == 0) {
                result_.keys.push_back({ik.instance, ik.node, r.key, ik.kind,
                                        r.hasTtl() ? r.pttlMs / 1000.0 : -1, age});
                break;
            }
}

void CensusBuilder::instanceDone(const std::string& instance, bool up, double scanSeconds) {
    result_.up[instance] = up;
    result_.scanSeconds[instance] = scanSeconds;
}

}  // namespace lockscope::exporter
