#pragma once
// What a scrape reads: the last complete census and the lifetime counters, swapped whole
// when a census ends, so a scrape never waits for a scan nor sees half of one. The exposition
// text is written once per census, on the census thread: a scrape of a target copies a
// prebuilt string and renders nothing (issue 36: scrape p99 <= 100 ms on a busy machine).

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <prometheus/collectable.h>

#include "lockscope/exporter/lock_census.h"
#include "metric_families.h"

namespace lockscope::exporter {

class CensusPublisher : public prometheus::Collectable {
  public:
    std::vector<prometheus::MetricFamily> Collect() const override;
    // The last census as exposition text, with the extra families it was published with
    // (empty before the first census).
    std::shared_ptr<const std::string> text() const;
    // Called by the census thread only (the counters are its own). extra: families served
    // after the census's own in text() (not in Collect()).
    void publish(const CensusResult& census, std::vector<prometheus::MetricFamily> extra = {});

  private:
    LifetimeCounters counters_;  // touched by the census thread only
    mutable std::mutex mutex_;
    std::shared_ptr<const std::vector<prometheus::MetricFamily>> families_;
    std::shared_ptr<const std::string> text_;
};

}  // namespace lockscope::exporter
