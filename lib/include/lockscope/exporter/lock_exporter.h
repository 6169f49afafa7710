#pragma once
// A Prometheus exporter for stuck locks: it watches each server as the window and `watch` do,
// on the same engine (ServerWatch: every primary of a cluster; a first scan paced by scan.maxLoad,
// then re-reads and a sweep for new keys within a server-time budget, WatchPolicy), takes a census
// of what the watches know every interval, and serves the last complete census on /metrics through
// civetweb, and each /scrape target's on /scrape?target=… (scrape_target_registry.h). A scrape
// never waits for a scan: it reads the census that finished last. Metrics are labelled by instance
// and kind (and finding); per-key series only for keys the operator names (keyLabelPatterns),
// capped.

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
#include "lockscope/fleet/scrape_targets.h"
#include "lockscope/inspect/lock_watch.h"
#include "lockscope/inspect/scan_options.h"

namespace lockscope::exporter {

class CensusWatches;
class ExporterHttpServer;
class ScrapeTargetRegistry;

// /scrape?target=redis://host:port (Prometheus's multi-target convention): the targets a
// scraper may name, and their credentials.
struct ScrapeTargetOptions {
    fleet::TargetAllowList allowList;      // empty: every target is refused (403)
    fleet::TargetCredentials credentials;  // user, password, TLS per target
    // A target is dropped, with its memory, after this many census intervals unscraped.
    int dropAfterMissed = 4;
    std::size_t maxTargets = 1000;  // watched at once; more: 503
};

struct ExporterOptions {
    std::string listen = "127.0.0.1:9471";  // host:port; port 0 picks a free one
    std::vector<Endpoint> instances;
    ConnectionOptions connection;
    inspect::ScanOptions scan;  // patterns, COUNT, maxLoad
    std::chrono::milliseconds interval{15000};
    // The steady-state share of one server core each instance's watch may use, (0, 1].
    double budget = 0.05;
    std::vector<std::string> keyLabelPatterns;  // glob patterns; empty: no per-key series
    std::size_t maxKeySeries = 100;
    ScrapeTargetOptions targets;
};

// The patterns an exporter scans by default: the guide's lock:* and the key shapes of the
// libraries LockScope knows (Redisson and Spring locks have free names: add their patterns).
std::vector<std::string> defaultExporterPatterns();

class LockExporter {
  public:
    // Throws InvalidArgumentError for no instance and no allowed target, a bad interval or a
    // bad scan option.
    explicit LockExporter(ExporterOptions options);
    ~LockExporter();
    LockExporter(const LockExporter&) = delete;
    LockExporter& operator=(const LockExporter&) = delete;

    // Binds the listener (throws InvalidArgumentError when it cannot: a bad or busy address) and
    // starts the census loop.
    void start();
    void stop();
    int port() const;  // the bound port, once started

    // One complete census, synchronously (tests): a full rescan of every instance, then the
    // census. The loop instead steps the watches every poll interval, within the budget, and
    // takes a census of what they know every interval.
    void censusOnce();
    std::uint64_t completedCensuses() const { return completed_.load(); }
    // The locks the last census counted: what the exporter keeps follows the live locks
    // (its watches' tables), not the keys that came and went.
    std::size_t trackedLocks() const;

    // The text a scrape of /metrics returns now (the last complete census of the -u instances
    // and the exporter's own metrics), without HTTP.
    std::string scrapeText() const;
    // The /scrape targets watched now (their canonical spelling).
    std::vector<std::string> scrapeTargets() const;

  private:
    class Collectable;
    void loop();
    void stepWatches(bool rescan);
    void publishCensus();
    std::chrono::milliseconds pollInterval() const;

    ExporterOptions options_;
    std::shared_ptr<Collectable> collectable_;
    std::unique_ptr<ScrapeTargetRegistry> targets_;
    std::unique_ptr<ExporterHttpServer> http_;
    std::atomic<std::size_t> trackedLocks_{0};  // counted by the last census
    // One watch engine per instance (a cluster's every primary), under censusMutex_.
    std::unique_ptr<CensusWatches> watched_;
    std::mutex censusMutex_;
    std::atomic<std::uint64_t> completed_{0};
    std::mutex stopMutex_;
    std::condition_variable stopSignal_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace lockscope::exporter
