#include "lockscope/exporter/lock_exporter.h"

#include <prometheus/collectable.h>
#include <prometheus/exposer.h>
#include <prometheus/text_serializer.h>

#include "lockscope/errors.h"
#include "lockscope/inspect/cluster_scan.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/lock_families.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/inspect/server_facts.h"
#include "metric_families.h"

namespace lockscope::exporter {
namespace {
constexpr std::size_t kMaxHeldUuidLocks = 100000;
}  // namespace

// What a scrape reads: the last complete census and the lifetime counters, swapped whole
// when a census ends, so a scrape never waits for a scan nor sees half of one.
class LockExporter::Collectable : public prometheus::Collectable {
  public:
    std::vector<prometheus::MetricFamily> Collect() const override {
        std::shared_ptr<const std::vector<prometheus::MetricFamily>> current;
        {
            std::lock_guard lock(mutex_);
            current = families_;
        }
        return current ? *current : std::vector<prometheus::MetricFamily>{};
    }
    void publish(const CensusResult& census) {
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
        std::lock_guard lock(mutex_);
        families_ = std::move(families);
    }

  private:
    LifetimeCounters counters_;  // touched by the census thread only
    mutable std::mutex mutex_;
    std::shared_ptr<const std::vector<prometheus::MetricFamily>> families_;
};

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
    routers_.resize(options_.instances.size());
}

LockExporter::~LockExporter() {
    stop();
}

void LockExporter::start() {
    try {
        exposer_ = std::make_unique<prometheus::Exposer>(options_.listen, 2);
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

void LockExporter::loop() {
    for (;;) {
        censusOnce();
        std::unique_lock lock(stopMutex_);
        if (stopSignal_.wait_for(lock, options_.interval, [this] { return stopping_; })) return;
    }
}

void LockExporter::censusOf(inspect::ClusterRouter& router, CensusBuilder& builder) {
    const auto addAll = [&](std::vector<inspect::LockRecord>& records) {
        // A Spring registry is told by the UUID its locks share: recognised over the whole
        // set before counting.
        inspect::recogniseSpringRegistries(records);
        const auto now = SteadyClock::now();
        const auto wall = std::chrono::system_clock::now();
        for (auto& r : records) builder.add(r, now, wall);
    };
    if (router.isCluster()) {
        // scanCluster reads every primary at once and follows slots that move; it returns
        // the whole result, so memory is the cluster's locks for the length of a census.
        auto result = inspect::scanCluster(router, {options_.scan, false});
        for (const auto& node : result.nodes)
            if (node.error) throw Error(node.errorKind, node.instance + ": " + *node.error);
        inspect::attachRedissonFences(result.records);
        addAll(result.records);
        return;
    }
    Connection& c = router.connectionTo(router.seed());
    inspect::Scanner scanner(c, options_.scan);
    // Records are counted batch by batch and dropped: memory stays with the live locks.
    // UUID-valued locks wait for the end of the instance (up to a cap).
    std::vector<inspect::LockRecord> uuidLocks;
    scanner.run([&](inspect::ScanBatch& batch) {
        inspect::attachRedissonFences(batch.records);
        const auto now = SteadyClock::now();
        const auto wall = std::chrono::system_clock::now();
        for (auto& r : batch.records) {
            if (r.kind == inspect::LockKind::Uuid && uuidLocks.size() < kMaxHeldUuidLocks)
                uuidLocks.push_back(std::move(r));
            else
                builder.add(r, now, wall);
        }
    });
    addAll(uuidLocks);
}

void LockExporter::censusOnce() {
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
    for (std::size_t i = 0; i < options_.instances.size(); ++i) {
        const auto start = SteadyClock::now();
        const std::string instance = options_.instances[i].display();
        bool up = true;
        builder.instanceStarted(instance);
        try {
            auto& router = routers_[i];
            if (!router)
                router = std::make_unique<inspect::ClusterRouter>(options_.instances[i],
                                                                  options_.connection);
            facts = inspect::probeServer(router->connectionTo(router->seed()));
            censusOf(*router, builder);
        } catch (const Error&) {
            up = false;
            routers_[i].reset();  // reconnect (and ask for the topology) next time
        }
        builder.instanceDone(instance, up,
                             std::chrono::duration<double>(SteadyClock::now() - start).count());
    }
    collectable_->publish(builder.result());
    {
        std::lock_guard lock(trackerMutex_);
        tracker_ = builder.takeTracker();
    }
    ++completed_;
}

}  // namespace lockscope::exporter
