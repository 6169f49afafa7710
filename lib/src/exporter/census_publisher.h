#pragma once
// What a scrape reads: the last complete census and the lifetime counters, swapped whole
// when a census ends, so a scrape never waits for a scan nor sees half of one.

#include <memory>
#include <mutex>
#include <vector>

#include <prometheus/collectable.h>

#include "lockscope/exporter/lock_census.h"
#include "metric_families.h"

namespace lockscope::exporter {

class CensusPublisher : public prometheus::Collectable {
  public:
    std::vector<prometheus::MetricFamily> Collect() const override;
    // Called by the census thread only (the counters are its own).
    void publish(const CensusResult& census);

  private:
    LifetimeCounters counters_;  // touched by the census thread only
    mutable std::mutex mutex_;
    std::shared_ptr<const std::vector<prometheus::MetricFamily>> families_;
};

}  // namespace lockscope::exporter
