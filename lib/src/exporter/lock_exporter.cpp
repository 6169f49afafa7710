#include "lockscope/exporter/lock_exporter.h"

#include <prometheus/collectable.h>
#include <prometheus/exposer.h>
#include <prometheus/text_serializer.h>

#include "census_publisher.h"
#include "lock_census_watches.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/lock_families.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/inspect/server_facts.h"
#include "metric_families.h"

namespace lockscope::exporter {

class LockExporter::Collectable : public CensusPublisher {};

std::vector<std::string> defaultExporterPatterns() {
    return {"lock:*",
            "job-lock:*",
            "*laravel_unique_job:*",
            "*laravel-queue-overlap:*",
            "uniquejobs:*",
            "redlock*",
            "qo_*",
            "activejob_uniqueness:*",
            "redisson_lock_*"};
}

LockExporter::LockExporter(ExporterOptions options)
    : options_(std::move(options)), collectable_(std::make_shared<Collectable>()) {
    if (options_.instances.empty())
        throw InvalidArgumentError("the exporter needs at least one instance");
    if (options_.interval < std::chrono::milliseconds(100) ||
        options_.interval > std::chrono::hours(24))
        throw InvalidArgumentError("the census interval must be 100 ms to 24 h");
    inspect::validate(options_.scan);
    for (const auto& p : options_.keyLabelPatterns)
        if (p.empty() || p.size() > 1024)
            throw InvalidArgumentError("a --key-labels pattern must be 1 to 1024 characters");
    if (!(options_.budget > 0.0 && options_.budget <= 1.0))
        throw InvalidArgumentError("the load budget must be above 0% and at most 100%");
    watched_ = std::make_unique<CensusWatches>(
        options_.instances, options_.connection,
        inspect::WatchOptions{
            .scan = options_.scan, .pollInterval = pollInterval(), .budget = options_.budget});
}

namespace {

constexpr int kServerThreads = 16;
constexpr int kRequestTimeoutMs = 3000;

// civetweb (under prometheus-cpp) serves each connection on one worker thread until the
// request is read and answered. prometheus-cpp's default of 2 workers and civetweb's 30 s
// request timeout let two idle sockets keep every scrape out for 30 s, and two clients
// sending a header line every 2 s hold it for good. So: more workers than a few stray
// connections, and a request must arrive whole within a few seconds (the clock runs from
// the connection's first byte wait, so dripping headers does not reset it).
std::vector<std::string> serverOptions(const std::string& listen) {
    return {"listening_ports",    listen,
            "num_threads",        std::to_string(kServerThreads),
            "request_timeout_ms", std::to_string(kRequestTimeoutMs),
            "enable_keep_alive",  "no"};
}

}  // namespace

LockExporter::~LockExporter() {
    stop();
}

void LockExporter::start() {
    try {
        exposer_ = std::make_unique<prometheus::Exposer>(serverOptions(options_.listen));
    } catch (const std::exception& e) {
        throw InvalidArgumentError("cannot listen on " + options_.listen + ": " + e.what());
    }
    exposer_->RegisterCollectable(collectable_);
    thread_ = std::thread([this] { loop(); });
}

void LockExporter::stop() {
    {
        std::lock_guard lock(stopMutex_);
        stopping_ = true;
    }
    stopSignal_.notify_all();
    if (thread_.joinable()) thread_.join();
    exposer_.reset();
}

int LockExporter::port() const {
    if (!exposer_) return 0;
    auto ports = exposer_->GetListeningPorts();
    return ports.empty() ? 0 : ports.front();
}

std::size_t LockExporter::trackedLocks() const {
    std::lock_guard lock(trackerMutex_);
    return tracker_.size();
}

std::string LockExporter::scrapeText() const {
    return prometheus::TextSerializer().Serialize(collectable_->Collect());
}

std::chrono::milliseconds LockExporter::pollInterval() const {
    // The watch reads urgent locks (near expiry, orphans, recent changes) every step; the
    // rest and the sweep for new keys go as fast as the budget allows, whatever the step.
    return std::min(options_.interval, std::chrono::milliseconds(1000));
}

void LockExporter::loop() {
    auto nextCensus = SteadyClock::now();
    for (;;) {
        {
            std::lock_guard census(censusMutex_);
            stepWatches(false);
            if (SteadyClock::now() >= nextCensus) {
                publishCensus();
                nextCensus = SteadyClock::now() + options_.interval;
            }
        }
        std::unique_lock lock(stopMutex_);
        if (stopSignal_.wait_for(lock, pollInterval(), [this] { return stopping_; })) return;
    }
}

void LockExporter::censusOnce() {
    std::lock_guard census(censusMutex_);
    stepWatches(true);
    publishCensus();
}

void LockExporter::stepWatches(bool rescan) {
    watched_->step(rescan);
}

void LockExporter::publishCensus() {
    std::unordered_map<std::uint64_t, TrackedLock> previous;
    {
        std::lock_guard lock(trackerMutex_);
        previous = std::move(tracker_);
    }
    inspect::Doctor doctor;
    inspect::ServerFacts facts;
    CensusBuilder builder(
        std::move(previous), options_.keyLabelPatterns,
        [&](const inspect::LockRecord& r) { return doctor.examine(r, facts, SteadyClock::now()); },
        options_.maxKeySeries);
    watched_->census(builder, facts);
    collectable_->publish(builder.result());
    {
        std::lock_guard lock(trackerMutex_);
        tracker_ = builder.takeTracker();
    }
    ++completed_;
}

}  // namespace lockscope::exporter
