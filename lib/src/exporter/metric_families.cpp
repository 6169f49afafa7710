#include "metric_families.h"

#include <limits>

namespace lockscope::exporter {
namespace {

using prometheus::ClientMetric;
using prometheus::MetricFamily;
using prometheus::MetricType;

ClientMetric labelled(std::vector<ClientMetric::Label> labels) {
    ClientMetric m;
    m.label = std::move(labels);
    return m;
}

ClientMetric gauge(std::vector<ClientMetric::Label> labels, double value) {
    ClientMetric m = labelled(std::move(labels));
    m.gauge.value = value;
    return m;
}

ClientMetric counter(std::vector<ClientMetric::Label> labels, double value) {
    ClientMetric m = labelled(std::move(labels));
    m.counter.value = value;
    return m;
}

ClientMetric histogram(std::vector<ClientMetric::Label> labels, const Histogram& h,
                       const std::vector<double>& bounds) {
    ClientMetric m = labelled(std::move(labels));
    m.histogram.sample_count = h.count;
    m.histogram.sample_sum = h.sum;
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i <= bounds.size(); ++i) {
        cumulative += i < h.counts.size() ? h.counts[i] : 0;
        m.histogram.bucket.push_back(
            {cumulative, i < bounds.size() ? bounds[i] : std::numeric_limits<double>::infinity()});
    }
    return m;
}

std::vector<ClientMetric::Label> ik(const InstanceKind& k) {
    return {{"instance", k.instance}, {"node", k.node}, {"kind", k.kind}};
}

// Label values must be UTF-8 text: a binary key byte shows as '?'.
std::string printable(const std::string& s) {
    std::string out(s);
    for (char& c : out)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
    return out;
}

MetricFamily family(std::string name, std::string help, MetricType type) {
    return MetricFamily{std::move(name), std::move(help), type, {}};
}

template <typename Map>
MetricFamily perKind(std::string name, std::string help, MetricType type, const Map& values) {
    MetricFamily f = family(std::move(name), std::move(help), type);
    for (const auto& [k, v] : values)
        f.metric.push_back(type == MetricType::Counter ? counter(ik(k), double(v))
                                                       : gauge(ik(k), double(v)));
    return f;
}

// `counts` with a 0 for every (instance, kind) that has locks, so alerts see 0 and not nothing.
std::map<InstanceKind, std::uint64_t> zeroFilled(
    const std::map<InstanceKind, std::uint64_t>& locks,
    const std::map<InstanceKind, std::uint64_t>& counts) {
    std::map<InstanceKind, std::uint64_t> out;
    for (const auto& [k, v] : locks) {
        auto it = counts.find(k);
        out[k] = it == counts.end() ? 0 : it->second;
    }
    return out;
}

}  // namespace

std::vector<MetricFamily> toMetricFamilies(const CensusResult& c, const LifetimeCounters& n) {
    std::vector<MetricFamily> out;
    out.push_back(perKind("lockscope_locks", "Locks seen by the last complete census.",
                          MetricType::Gauge, c.locks));
    // Zero series for every (instance, kind) with locks, so alerts see 0 and not nothing.
    out.push_back(perKind("lockscope_locks_without_ttl",
                          "Locks with no TTL: they stay until someone deletes them.",
                          MetricType::Gauge, zeroFilled(c.locks, c.withoutTtl)));
    // Zero series here too: LockOrphaned (alerts.yml) sees a stuck lock's series go 0 → 1.
    out.push_back(perKind("lockscope_orphaned_locks",
                          "Locks whose holder is gone, on positive evidence (a killed job queue "
                          "worker, a Sidekiq process that stopped beating): safe to release.",
                          MetricType::Gauge, zeroFilled(c.locks, c.orphaned)));
    out.push_back(perKind("lockscope_holder_unknown_locks",
                          "Locks whose holder cannot be judged alive or gone (nothing names it, "
                          "or CLIENT LIST is denied).",
                          MetricType::Gauge, zeroFilled(c.locks, c.holderUnknown)));
    MetricFamily age = family("lockscope_lock_age_seconds",
                              "How long locks have been held, from the holder's own time "
                              "(ShedLock, redis-py uuid1) or from when the exporter first saw "
                              "the holder.",
                              MetricType::Histogram);
    for (const auto& [k, h] : c.age) age.metric.push_back(histogram(ik(k), h, ageBuckets()));
    out.push_back(std::move(age));
    MetricFamily ttl = family("lockscope_lock_ttl_remaining_seconds",
                              "TTL left on locks that have one.", MetricType::Histogram);
    for (const auto& [k, h] : c.ttl) ttl.metric.push_back(histogram(ik(k), h, ttlBuckets()));
    out.push_back(std::move(ttl));
    out.push_back(perKind(
        "lockscope_lock_handoffs_total",
        "Holder changes the watch saw: a lock read with another holder than at its last read.",
        MetricType::Counter, n.handoffs));
    out.push_back(perKind(
        "lockscope_lock_renewals_total",
        "Renewals the watch saw: a lock read with more TTL left than its last read left it.",
        MetricType::Counter, n.renewals));
    MetricFamily findings =
        family("lockscope_findings", "Locks with a doctor finding (no-ttl, fixed-value, ...).",
               MetricType::Gauge);
    for (const auto& [k, v] : c.findings)
        findings.metric.push_back(gauge({{"instance", k.first.instance},
                                         {"node", k.first.node},
                                         {"kind", k.first.kind},
                                         {"finding", k.second}},
                                        double(v)));
    out.push_back(std::move(findings));
    MetricFamily scan =
        family("lockscope_scan_duration_seconds",
               "How long the last complete census of the instance took.", MetricType::Gauge);
    MetricFamily up =
        family("lockscope_up", "1 when the last census reached the instance.", MetricType::Gauge);
    MetricFamily errors = family("lockscope_scrape_errors_total",
                                 "Censuses of the instance that failed.", MetricType::Counter);
    for (const auto& [instance, ok] : c.up) {
        up.metric.push_back(gauge({{"instance", instance}}, ok ? 1 : 0));
        scan.metric.push_back(gauge({{"instance", instance}}, c.scanSeconds.at(instance)));
        auto e = n.scrapeErrors.find(instance);
        errors.metric.push_back(
            counter({{"instance", instance}}, e == n.scrapeErrors.end() ? 0 : double(e->second)));
    }
    out.push_back(std::move(scan));
    out.push_back(std::move(up));
    out.push_back(std::move(errors));
    if (!c.keys.empty()) {
        MetricFamily keyTtl = family("lockscope_key_ttl_remaining_seconds",
                                     "TTL left on an opted-in key (-1: none).", MetricType::Gauge);
        MetricFamily keyAge = family("lockscope_key_age_seconds",
                                     "How long an opted-in key has been held.", MetricType::Gauge);
        for (const auto& s : c.keys) {
            std::vector<ClientMetric::Label> l{{"instance", s.instance},
                                               {"node", s.node},
                                               {"key", printable(s.key)},
                                               {"kind", s.kind}};
            keyTtl.metric.push_back(gauge(l, s.ttlSeconds));
            keyAge.metric.push_back(gauge(l, s.ageSeconds));
        }
        out.push_back(std::move(keyTtl));
        out.push_back(std::move(keyAge));
    }
    return out;
}

}  // namespace lockscope::exporter
