#pragma once
// A Prometheus exporter for stuck locks: it takes a census of the locks on each server every
// interval (paced by --max-load), and serves the last complete census on /metrics through
// prometheus-cpp's pull exposer. A scrape never waits for a scan: it reads the census that
// finished last. Metrics are labelled by instance, node and kind (and finding); per-key series
// only for keys the operator names (keyLabelPatterns), capped. An instance that is a Redis
// Cluster is read node by node (every primary at once), each lock labelled with its node.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/endpoint.h"
#include "lockscope/exporter/lock_census.h"
#include "lockscope/inspect/cluster_router.h"
#include "lockscope/inspect/scan_options.h"

namespace prometheus {
class Exposer;
}

namespace lockscope::exporter {

struct ExporterOptions {
    std::string listen = "127.0.0.1:9471";  // host:port; port 0 picks a free one
    std::vector<Endpoint> instances;
    ConnectionOptions connection;
    inspect::ScanOptions scan;  // patterns, COUNT, maxLoad
    std::chrono::milliseconds interval{15000};
    std::vector<std::string> keyLabelPatterns;  // glob patterns; empty: no per-key series
    std::size_t maxKeySeries = 100;
};

// The patterns an exporter scans by default: the guide's lock:* and the key shapes of the
// libraries LockScope knows (Redisson and Spring locks have free names: add their patterns).
std::vector<std::string> defaultExporterPatterns();

class LockExporter {
  public:
    // Throws InvalidArgumentError for no instance, a bad interval or a bad scan option.
    explicit LockExporter(ExporterOptions options);
    ~LockExporter();
    LockExporter(const LockExporter&) = delete;
    LockExporter& operator=(const LockExporter&) = delete;

    // Binds the listener (throws InvalidArgumentError when it cannot: a bad or busy address) and
    // starts the census loop.
    void start();
    void stop();
    int port() const;  // the bound port, once started

    // One census of every instance, synchronously (tests, and the loop's body).
    void censusOnce();
    std::uint64_t completedCensuses() const { return completed_.load(); }
    std::size_t trackedLocks() const;

    // The text a scrape returns now (the last complete census), without HTTP.
    std::string scrapeText() const;

  private:
    class Collectable;
    void loop();
    void censusOf(inspect::ClusterRouter& router, CensusBuilder& builder);

    ExporterOptions options_;
    std::shared_ptr<Collectable> collectable_;
    std::unique_ptr<prometheus::Exposer> exposer_;
    std::unordered_map<std::uint64_t, TrackedLock> tracker_;
    mutable std::mutex trackerMutex_;
    // Per instance, opened lazily: the seed's connection, and on a cluster every node's.
    std::vector<std::unique_ptr<inspect::ClusterRouter>> routers_;
    std::atomic<std::uint64_t> completed_{0};
    std::mutex stopMutex_;
    std::condition_variable stopSignal_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace lockscope::exporter
