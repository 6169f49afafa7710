#include "lock_census_watches.h"

#include "lockscope/errors.h"
#include "lockscope/inspect/formats/lock_families.h"

namespace lockscope::exporter {
namespace {

constexpr std::size_t kMaxHeldUuidLocks = 100000;
constexpr std::size_t kCensusBatch = 10000;

// Counts one node's locks as its watch knows them, a batch of copies at a time (memory stays
// with the watch's table). UUID-valued locks wait for the end (up to a cap): only then can a
// Spring registry be told by the UUID its locks share.
void addNode(const inspect::LockTable& table, CensusBuilder& builder) {
    const auto now = SteadyClock::now();
    const auto wall = std::chrono::system_clock::now();
    std::vector<inspect::LockRecord> batch, uuidLocks;
    auto flush = [&] {
        inspect::attachRedissonFences(batch);
        for (auto& r : batch) {
            if (r.kind == inspect::LockKind::Uuid && uuidLocks.size() < kMaxHeldUuidLocks)
                uuidLocks.push_back(std::move(r));
            else
                builder.add(r, now, wall);
        }
        batch.clear();
    };
    for (const auto& [key, record] : table.records()) {
        batch.push_back(*record);
        if (batch.size() >= kCensusBatch) flush();
    }
    flush();
    inspect::recogniseSpringRegistries(uuidLocks);
    for (auto& r : uuidLocks) builder.add(r, now, wall);
}

}  // namespace

CensusWatches::CensusWatches(const std::vector<Endpoint>& instances,
                             const ConnectionOptions& connection,
                             const inspect::WatchOptions& watch,
                             const std::vector<std::string>& names,
                             std::optional<inspect::LivenessOptions> liveness) {
    for (const auto& endpoint : instances) {
        Watched w;
        w.instance = watched_.size() < names.size() ? names[watched_.size()] : endpoint.display();
        w.engine = std::make_unique<inspect::ServerWatch>(inspect::ServerWatchOptions{
            .endpoint = endpoint, .connection = connection, .watch = watch, .liveness = liveness});
        watched_.push_back(std::move(w));
    }
}

CensusWatches::~CensusWatches() = default;

void CensusWatches::step(bool rescan) {
    for (auto& w : watched_) stepOne(w, rescan);
}

void CensusWatches::stepOne(Watched& w, bool rescan) {
    const auto start = SteadyClock::now();
    try {
        if (!w.opened) {
            w.engine->open();
            w.opened = true;
        } else if (rescan) {
            w.engine->requestRescan();
        }
        w.engine->step();
        bool up = true;
        for (const auto& n : w.engine->nodes()) up = up && n.state == inspect::NodeState::Connected;
        w.up = up;
    } catch (const Error&) {
        w.up = false;
        w.opened = false;  // opened again (and rescanned) next time
    }
    w.lastStepSeconds = std::chrono::duration<double>(SteadyClock::now() - start).count();
}

bool CensusWatches::scanned() const {
    for (const auto& w : watched_) {
        if (!w.up) return false;
        for (const auto& n : w.engine->nodes())
            if (!n.scanned) return false;
    }
    return true;
}

bool CensusWatches::up() const {
    for (const auto& w : watched_)
        if (!w.up) return false;
    return true;
}

void CensusWatches::census(CensusBuilder& builder, inspect::ServerFacts& facts) const {
    for (const auto& w : watched_) {
        builder.instanceStarted(w.instance);
        if (w.up)
            for (const auto& n : w.engine->nodes()) {
                if (!n.watch) continue;
                facts = n.watch->server();
                addNode(n.watch->table(), builder);
            }
        builder.instanceDone(w.instance, w.up, w.lastStepSeconds);
    }
}

}  // namespace lockscope::exporter
