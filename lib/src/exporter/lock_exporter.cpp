#include "lockscope/exporter/lock_exporter.h"

#include <prometheus/text_serializer.h>

#include "census_publisher.h"
#include "exporter_http_server.h"
#include "lock_census_watches.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/formats/lock_families.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/inspect/server_facts.h"
#include "metric_families.h"
#include "scrape_target_registry.h"

namespace lockscope::exporter {
namespace {

// The share of one core all the exporter's watches may use for themselves (re-reads in
// rotation, the sweep for new keys): what one watch alone may use.
constexpr double kWatchersCpu = 0.03;

}  // namespace

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
    if (options_.instances.empty() && options_.targets.allowList.empty())
        throw InvalidArgumentError(
            "the exporter needs at least one instance (-u) or allowed target (--allow-target)");
    if (options_.interval < std::chrono::milliseconds(100) ||
        options_.interval > std::chrono::hours(24))
        throw InvalidArgumentError("the census interval must be 100 ms to 24 h");
    inspect::validate(options_.scan);
    for (const auto& p : options_.keyLabelPatterns)
        if (p.empty() || p.size() > 1024)
            throw InvalidArgumentError("a --key-labels pattern must be 1 to 1024 characters");
    if (!(options_.budget > 0.0 && options_.budget <= 1.0))
        throw InvalidArgumentError("the load budget must be above 0% and at most 100%");
    // Every watch of the exporter (-u instances and /scrape targets) shares one budget for its
    // own CPU: the 3% of a core one watch has alone made fifty targets more than a core.
    const inspect::WatchOptions watch{
        .scan = options_.scan,
        .pollInterval = pollInterval(),
        .budget = options_.budget,
        .sharedClientBudget = std::make_shared<inspect::SharedCpuBudget>(kWatchersCpu)};
    watched_ = std::make_unique<CensusWatches>(options_.instances, options_.connection, watch);
    targets_ = std::make_unique<ScrapeTargetRegistry>(options_, watch);
}

namespace {

prometheus::MetricFamily exporterFamily(std::string name, std::string help,
                                        prometheus::MetricType type) {
    return {std::move(name), std::move(help), type, {}};
}

void addSample(prometheus::MetricFamily& family,
               std::vector<prometheus::ClientMetric::Label> labels, double value) {
    prometheus::ClientMetric m;
    m.label = std::move(labels);
    if (family.type == prometheus::MetricType::Counter)
        m.counter.value = value;
    else
        m.gauge.value = value;
    family.metric.push_back(std::move(m));
}

// The exporter's own metrics: the /scrape targets it watches and how it answered scrapes.
std::vector<prometheus::MetricFamily> ownFamilies(const ScrapeCounts& c) {
    auto targets = exporterFamily("lockscope_exporter_scrape_targets",
                                  "/scrape targets watched now.", prometheus::MetricType::Gauge);
    addSample(targets, {}, double(c.watched));
    auto answers = exporterFamily("lockscope_exporter_scrapes_total",
                                  "/scrape requests by answer: ok, malformed (400), denied (403, "
                                  "never dialled), full (503: --max-targets).",
                                  prometheus::MetricType::Counter);
    addSample(answers, {{"answer", "ok"}}, double(c.ok));
    addSample(answers, {{"answer", "malformed"}}, double(c.malformed));
    addSample(answers, {{"answer", "denied"}}, double(c.denied));
    addSample(answers, {{"answer", "full"}}, double(c.full));
    auto dropped = exporterFamily("lockscope_exporter_scrape_targets_dropped_total",
                                  "/scrape targets dropped after --drop-after missed intervals.",
                                  prometheus::MetricType::Counter);
    addSample(dropped, {}, double(c.dropped));
    return {targets, answers, dropped};
}

}  // namespace

LockExporter::~LockExporter() {
    stop();
}

void LockExporter::start() {
    http_ = std::make_unique<ExporterHttpServer>(
        options_.listen, HttpRoutes{.metrics = [this] { return scrapeText(); },
                                    .scrape =
                                        [this](const std::optional<std::string>& target) {
                                            return targets_->scrape(target);
                                        }});
    thread_ = std::thread([this] { loop(); });
}

void LockExporter::stop() {
    {
        std::lock_guard lock(stopMutex_);
        stopping_ = true;
    }
    stopSignal_.notify_all();
    if (thread_.joinable()) thread_.join();
    http_.reset();  // no scrape in flight from here on
}

int LockExporter::port() const {
    return http_ ? http_->port() : 0;
}

std::size_t LockExporter::trackedLocks() const {
    return trackedLocks_.load();
}

std::string LockExporter::scrapeText() const {
    auto families = collectable_->Collect();
    auto own = ownFamilies(targets_->counts());
    families.insert(families.end(), own.begin(), own.end());
    return prometheus::TextSerializer().Serialize(families);
}

std::vector<std::string> LockExporter::scrapeTargets() const {
    return targets_->watchedTargets();
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
    inspect::Doctor doctor;
    inspect::ServerFacts facts;
    const auto now = SteadyClock::now();
    CensusBuilder builder(
        options_.keyLabelPatterns,
        [&](const inspect::LockRecord& r) { return doctor.examine(r, facts, now); },
        options_.maxKeySeries);
    watched_->census(builder, facts);
    std::size_t locks = 0;
    for (const auto& [series, count] : builder.result().locks) locks += count;
    collectable_->publish(builder.result());
    trackedLocks_ = locks;
    ++completed_;
}

}  // namespace lockscope::exporter
