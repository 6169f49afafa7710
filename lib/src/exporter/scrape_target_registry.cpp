#include "scrape_target_registry.h"

#include "lockscope/errors.h"

namespace lockscope::exporter {
namespace {

constexpr std::chrono::milliseconds kDropCheck{500};
constexpr int kMaxDropAfterMissed = 1000;
constexpr std::size_t kMaxMaxTargets = 10000;

// An error line may quote what a scraper sent: only printable ASCII goes back out.
std::string printable(std::string text) {
    for (char& c : text)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
    return text;
}

}  // namespace

ScrapeTargetRegistry::ScrapeTargetRegistry(const ExporterOptions& options,
                                           inspect::WatchOptions watch)
    : options_(options), watch_(std::move(watch)) {
    const auto& t = options_.targets;
    if (t.dropAfterMissed < 1 || t.dropAfterMissed > kMaxDropAfterMissed)
        throw InvalidArgumentError("--drop-after must be 1 to " +
                                   std::to_string(kMaxDropAfterMissed) + " missed intervals");
    if (t.maxTargets < 1 || t.maxTargets > kMaxMaxTargets)
        throw InvalidArgumentError("--max-targets must be 1 to " + std::to_string(kMaxMaxTargets));
    dropper_ = std::thread([this] { dropIdleLoop(); });
}

ScrapeTargetRegistry::~ScrapeTargetRegistry() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    stopSignal_.notify_all();
    if (dropper_.joinable()) dropper_.join();
    std::map<std::string, std::shared_ptr<TargetWatch>> targets;
    {
        std::lock_guard lock(mutex_);
        targets.swap(targets_);
    }
}

ScrapeAnswer ScrapeTargetRegistry::scrape(const std::optional<std::string>& text) {
    auto count = [this](std::uint64_t ScrapeCounts::*field) {
        std::lock_guard lock(mutex_);
        ++(counts_.*field);
    };
    if (!text) {
        count(&ScrapeCounts::malformed);
        return {400, "missing the target parameter: /scrape?target=redis://host:port\n"};
    }
    fleet::ScrapeTarget target;
    try {
        target = fleet::parseScrapeTarget(*text);
    } catch (const Error& e) {
        count(&ScrapeCounts::malformed);
        return {400, "bad target: " + printable(e.what()) + "\n"};
    }
    if (!options_.targets.allowList.allows(target)) {
        count(&ScrapeCounts::denied);
        return {403, "target " + target.canonical +
                         " is not allowed (--allow-target, --targets-file); it was not dialled\n"};
    }
    bool full = false;
    auto watch = targetFor(target, full);
    if (!watch) {
        count(&ScrapeCounts::full);
        return {503, "already watching --max-targets " +
                         std::to_string(options_.targets.maxTargets) +
                         " targets; a target is dropped after --drop-after missed intervals\n"};
    }
    count(&ScrapeCounts::ok);
    return {200, watch->scrape()};
}

std::shared_ptr<TargetWatch> ScrapeTargetRegistry::targetFor(const fleet::ScrapeTarget& target,
                                                             bool& full) {
    std::lock_guard lock(mutex_);
    if (auto it = targets_.find(target.canonical); it != targets_.end()) return it->second;
    if (targets_.size() >= options_.targets.maxTargets) {
        full = true;
        return nullptr;
    }
    TargetWatchOptions o{.target = target,
                         .connection = options_.connection,
                         .watch = watch_,
                         .interval = options_.interval,
                         .keyLabelPatterns = options_.keyLabelPatterns,
                         .maxKeySeries = options_.maxKeySeries};
    options_.targets.credentials.applyTo(o.target);
    // TLS from the credentials file or the scheme; the connection's own TLS flags apply to
    // the -u instances only.
    auto watch = std::make_shared<TargetWatch>(std::move(o));
    targets_.emplace(target.canonical, watch);
    counts_.watched = targets_.size();
    return watch;
}

ScrapeCounts ScrapeTargetRegistry::counts() const {
    std::lock_guard lock(mutex_);
    return counts_;
}

std::vector<std::string> ScrapeTargetRegistry::watchedTargets() const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> names;
    for (const auto& [name, watch] : targets_) names.push_back(name);
    return names;
}

std::vector<std::shared_ptr<TargetWatch>> ScrapeTargetRegistry::takeIdle() {
    const auto idleFor = options_.interval * options_.targets.dropAfterMissed;
    const auto now = SteadyClock::now();
    std::vector<std::shared_ptr<TargetWatch>> idle;
    std::lock_guard lock(mutex_);
    for (auto it = targets_.begin(); it != targets_.end();) {
        if (now - it->second->lastScraped() > idleFor) {
            idle.push_back(std::move(it->second));
            it = targets_.erase(it);
            ++counts_.dropped;
        } else {
            ++it;
        }
    }
    counts_.watched = targets_.size();
    return idle;
}

// Stops dropped targets here, not on a scrape's thread: a stop waits for a read in flight.
void ScrapeTargetRegistry::dropIdleLoop() {
    std::unique_lock lock(mutex_);
    while (!stopSignal_.wait_for(lock, kDropCheck, [this] { return stopping_; })) {
        lock.unlock();
        auto idle = takeIdle();
        // A scrape that took the target just before it was dropped still holds it: the
        // last holder must be this thread, so wait for that scrape to finish its answer.
        for (auto& watch : idle)
            while (watch.use_count() > 1) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        idle.clear();
        lock.lock();
    }
}

}  // namespace lockscope::exporter
