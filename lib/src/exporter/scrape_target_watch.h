#pragma once
// One /scrape target of the multi-target exporter: a watch of its own (the one watch engine,
// with its own load budget) on a thread of its own, so a target that never answers delays
// no other target's census, and a scrape never waits for any: it reads the census that
// finished last. Until the first census is complete the target answers `lockscope_up 0` with
// the reason (lockscope_down_reason), never a hanging scrape.
//
// Threads: scrape() and lastScraped() from any thread; the watch runs on the target's own.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "census_publisher.h"
#include "lockscope/connection.h"
#include "lockscope/fleet/scrape_targets.h"
#include "lockscope/inspect/lock_watch.h"

namespace lockscope::exporter {

struct TargetWatchOptions {
    fleet::ScrapeTarget target;  // credentials already applied
    ConnectionOptions connection;
    inspect::WatchOptions watch;  // its budget is this target's alone
    std::chrono::milliseconds interval{15000};
    std::vector<std::string> keyLabelPatterns;
    std::size_t maxKeySeries = 100;
};

class TargetWatch {
  public:
    // Starts the target's thread; the first connection is made there, not here.
    explicit TargetWatch(TargetWatchOptions options);
    ~TargetWatch();  // stops the thread (a read in flight ends within its deadline)
    TargetWatch(const TargetWatch&) = delete;
    TargetWatch& operator=(const TargetWatch&) = delete;

    // The target's metrics now (the exposition text), and the scrape is remembered.
    std::string scrape();
    SteadyClock::time_point lastScraped() const;
    bool firstCensusDone() const { return censuses_.load() > 0; }
    const std::string& name() const { return options_.target.canonical; }

  private:
    void run();
    bool waitOrStop(std::chrono::milliseconds wait);
    void publishCensus(class CensusWatches& watches);
    std::vector<prometheus::MetricFamily> pendingFamilies() const;
    // censusDone: a census has been taken (else its first one is in progress).
    void addDownReason(std::vector<prometheus::MetricFamily>& families, bool censusDone) const;

    TargetWatchOptions options_;
    CensusPublisher publisher_;
    std::atomic<std::uint64_t> censuses_{0};
    std::atomic<bool> up_{false};
    std::atomic<SteadyClock::rep> lastScraped_;
    std::mutex stopMutex_;
    std::condition_variable stopSignal_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace lockscope::exporter
