#pragma once
// The census as Prometheus metric families (names and help text in one place).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <prometheus/metric_family.h>

#include "lockscope/exporter/lock_census.h"

namespace lockscope::exporter {

// What the exporter has counted over its life (Prometheus counters never go down).
struct LifetimeCounters {
    std::map<InstanceKind, std::uint64_t> handoffs, renewals;
    std::map<std::string, std::uint64_t> scrapeErrors;  // per instance
};

std::vector<prometheus::MetricFamily> toMetricFamilies(const CensusResult& census,
                                                       const LifetimeCounters& counters);

}  // namespace lockscope::exporter
