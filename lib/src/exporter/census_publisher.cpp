#include "census_publisher.h"

#include <prometheus/text_serializer.h>

namespace lockscope::exporter {

std::vector<prometheus::MetricFamily> CensusPublisher::Collect() const {
    std::shared_ptr<const std::vector<prometheus::MetricFamily>> current;
    {
        std::lock_guard lock(mutex_);
        current = families_;
    }
    return current ? *current : std::vector<prometheus::MetricFamily>{};
}

std::shared_ptr<const std::string> CensusPublisher::text() const {
    std::lock_guard lock(mutex_);
    return text_;
}

void CensusPublisher::publish(const CensusResult& census,
                              std::vector<prometheus::MetricFamily> extra) {
    for (const auto& [k, v] : census.handoffs) counters_.handoffs[k] += v;
    for (const auto& [k, v] : census.renewals) counters_.renewals[k] += v;
    for (const auto& [k, v] : census.locks) {  // every series from its first census on
        counters_.handoffs.try_emplace(k, 0);
        counters_.renewals.try_emplace(k, 0);
    }
    for (const auto& [instance, up] : census.up)
        if (!up) ++counters_.scrapeErrors[instance];
    auto families = std::make_shared<const std::vector<prometheus::MetricFamily>>(
        toMetricFamilies(census, counters_));
    std::vector<prometheus::MetricFamily> served = *families;
    served.insert(served.end(), std::make_move_iterator(extra.begin()),
                  std::make_move_iterator(extra.end()));
    auto text = std::make_shared<const std::string>(prometheus::TextSerializer().Serialize(served));
    std::lock_guard lock(mutex_);
    families_ = std::move(families);
    text_ = std::move(text);
}

}  // namespace lockscope::exporter
