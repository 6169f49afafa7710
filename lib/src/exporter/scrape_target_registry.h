#pragma once
// The targets of `/scrape?target=…` (Prometheus's multi-target convention): a target the
// allow-list admits is watched from its first scrape, kept while it is scraped, and dropped
// with its memory after a few scrape intervals without one. A target the allow-list does not
// admit is answered 403 and never dialled; credentials come from the credentials file only.
//
// Threads: scrape() from any number of HTTP threads at once; it never waits for a server.
// Dropped targets are stopped on the registry's own thread, so no scrape waits for that.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "lockscope/exporter/lock_exporter.h"
#include "scrape_target_watch.h"

namespace lockscope::exporter {

struct ScrapeAnswer {
    int status = 200;  // 200, 400 (malformed), 403 (not allowed), 503 (too many targets)
    std::string body;  // the metrics, or the reason in one line
};

// What the registry has answered, for the exporter's own metrics on /metrics.
struct ScrapeCounts {
    std::uint64_t ok = 0, malformed = 0, denied = 0, full = 0, dropped = 0;
    std::size_t watched = 0;
};

class ScrapeTargetRegistry {
  public:
    // Throws InvalidArgumentError for a bad option (dropAfterMissed, maxTargets).
    ScrapeTargetRegistry(const ExporterOptions& options, inspect::WatchOptions watch);
    ~ScrapeTargetRegistry();
    ScrapeTargetRegistry(const ScrapeTargetRegistry&) = delete;
    ScrapeTargetRegistry& operator=(const ScrapeTargetRegistry&) = delete;

    // The answer to /scrape?target=<target> (target already percent-decoded; nullopt when the
    // parameter is missing).
    ScrapeAnswer scrape(const std::optional<std::string>& target);
    ScrapeCounts counts() const;
    std::vector<std::string> watchedTargets() const;

  private:
    std::shared_ptr<TargetWatch> targetFor(const fleet::ScrapeTarget& target, bool& full);
    void dropIdleLoop();
    std::vector<std::shared_ptr<TargetWatch>> takeIdle();

    const ExporterOptions& options_;
    inspect::WatchOptions watch_;
    mutable std::mutex mutex_;
    std::map<std::string, std::shared_ptr<TargetWatch>> targets_;  // by canonical spelling
    ScrapeCounts counts_;
    std::condition_variable stopSignal_;
    bool stopping_ = false;
    std::thread dropper_;
};

}  // namespace lockscope::exporter
