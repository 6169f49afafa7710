#include "scrape_target_watch.h"

#include <algorithm>

#include <prometheus/text_serializer.h>

#include "heap_trim.h"
#include "lock_census_watches.h"
#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/server_facts.h"
#include "watch_thread_priority.h"

namespace lockscope::exporter {
namespace {

// Until the first census: step often (the first scan is paced by its own load limit), so a
// new target's metrics come as soon as its scan ends.
constexpr std::chrono::milliseconds kFirstCensusStep{100};
constexpr std::chrono::milliseconds kMaxStep{1000};
// How often a target's locks that did not change are judged again (alive, gone): a census
// is published once an interval, so judging each lock every interval is all a scrape can
// show. The watch's default (every 2 s, 20,000 rows a turn) re-judged a whole 20k-lock target
// every 2 s: most of the exporter's CPU over a fleet of 50 (issue 36: 55% of a core).
constexpr std::chrono::milliseconds kMinReassess{2000};
constexpr std::chrono::milliseconds kMaxReassess{60000};
// Rows judged again per read: each turn copies its rows, so fifty targets each copying a
// whole 20k-lock table held that much memory in passing (the allocator kept most of it).
constexpr std::size_t kRowsPerTurn = 5000;

inspect::LivenessOptions livenessFor(std::chrono::milliseconds interval) {
    inspect::LivenessOptions o;
    o.reassessEvery = std::clamp(interval, kMinReassess, kMaxReassess);
    o.maxRowsPerTurn = kRowsPerTurn;
    return o;
}

prometheus::MetricFamily gaugeFamily(std::string name, std::string help,
                                     std::vector<prometheus::ClientMetric::Label> labels,
                                     double value) {
    prometheus::ClientMetric m;
    m.label = std::move(labels);
    m.gauge.value = value;
    return {std::move(name), std::move(help), prometheus::MetricType::Gauge, {m}};
}

}  // namespace

TargetWatch::TargetWatch(TargetWatchOptions options)
    : options_(std::move(options)), lastScraped_(SteadyClock::now().time_since_epoch().count()) {
    thread_ = std::thread([this] { run(); });
}

TargetWatch::~TargetWatch() {
    {
        std::lock_guard lock(stopMutex_);
        stopping_ = true;
    }
    stopSignal_.notify_all();
    if (thread_.joinable()) thread_.join();
}

std::string TargetWatch::scrape() {
    lastScraped_ = SteadyClock::now().time_since_epoch().count();
    if (auto text = publisher_.text()) return *text;  // written by the census, down reason too
    auto families = pendingFamilies();
    addDownReason(families, false);
    return prometheus::TextSerializer().Serialize(families);
}

SteadyClock::time_point TargetWatch::lastScraped() const {
    return SteadyClock::time_point(SteadyClock::duration(lastScraped_.load()));
}

std::vector<prometheus::MetricFamily> TargetWatch::pendingFamilies() const {
    return {gaugeFamily("lockscope_up", "1 when the last census reached the instance.",
                        {{"instance", name()}}, 0)};
}

// Why a target is down, as a label a person can read on the dashboard: the first census is
// still running (a new target), or the last census could not reach the server.
void TargetWatch::addDownReason(std::vector<prometheus::MetricFamily>& families,
                                bool censusDone) const {
    const char* reason = nullptr;
    if (!censusDone)
        reason = "first census in progress";
    else if (!up_)
        reason = "unreachable";
    if (!reason) return;
    families.push_back(gaugeFamily("lockscope_down_reason",
                                   "Why lockscope_up is 0 for the instance (1 for the reason).",
                                   {{"instance", name()}, {"reason", reason}}, 1));
}

bool TargetWatch::waitOrStop(std::chrono::milliseconds wait) {
    std::unique_lock lock(stopMutex_);
    return stopSignal_.wait_for(lock, wait, [this] { return stopping_; });
}

void TargetWatch::run() {
    CensusWatches watches({options_.target.endpoint}, options_.connection, options_.watch,
                          {options_.target.canonical}, livenessFor(options_.interval));
    auto nextCensus = SteadyClock::now();
    const auto step = std::min(options_.interval, kMaxStep);
    bool steady = false;
    for (;;) {
        watches.step(false);
        const bool first = !firstCensusDone();
        // The first census when the first scan has ended (or the server cannot be reached:
        // then it says so at once); the next ones every interval.
        if (first ? (watches.scanned() || !watches.up()) : SteadyClock::now() >= nextCensus) {
            publishCensus(watches);
            nextCensus = SteadyClock::now() + options_.interval;
            if (first && watches.up()) returnFreeHeapToSystem();  // the first scan's batches
            // Steady state (a complete census out, not a down one): the scrapes go first.
            if (!steady && watches.up() && watches.scanned()) {
                lowerThisWatchThreadPriority();
                steady = true;
            }
        }
        if (waitOrStop(first && !firstCensusDone() ? kFirstCensusStep : step)) return;
    }
}

void TargetWatch::publishCensus(CensusWatches& watches) {
    // One target's census at a time: each copies its records in batches, and fifty such
    // copies at once, interleaved in the allocator with the tables, left most of the freed
    // memory stranded between live records (issue 37).
    // A new target's first census does not queue behind the others: it is what its first
    // scrapes wait for.
    static std::mutex oneAtATime;
    std::unique_lock census(oneAtATime, std::defer_lock);
    if (firstCensusDone()) census.lock();
    inspect::Doctor doctor;
    inspect::ServerFacts facts;
    const auto now = SteadyClock::now();
    CensusBuilder builder(
        options_.keyLabelPatterns,
        [&](const inspect::LockRecord& r) { return doctor.examine(r, facts, now); },
        options_.maxKeySeries);
    watches.census(builder, facts);
    up_ = watches.up();
    std::vector<prometheus::MetricFamily> downReason;
    addDownReason(downReason, true);
    publisher_.publish(builder.result(), std::move(downReason));
    ++censuses_;
}

}  // namespace lockscope::exporter
