#include "lockscope/sim/live_replay.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "lockscope/connection.h"
#include "lockscope/errors.h"
#include "lockscope/fenced_store.h"
#include "lockscope/sim/live_fenced_resource.h"
#include "lockscope/sim/live_redis_backend.h"
#include "lockscope/sim/simulator.h"

namespace lockscope::sim {

namespace {

// A fresh directory for the SQLite file, removed when the run ends.
class ScratchDirectory {
  public:
    ScratchDirectory() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "lockscope-replay-XXXXXX").string();
        if (!mkdtemp(pattern.data())) throw StorageError("cannot create a temporary directory");
        path_ = pattern;
    }
    ~ScratchDirectory() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

  private:
    std::filesystem::path path_;
};

}  // namespace

RunResult runSimulated(const Scenario& scenario, const ScenarioParams& params, std::uint64_t seed) {
    World world;
    RunResult result;
    buildScenario(scenario, params, seed, world, result.recording);
    Simulator::runToEnd(world, result.recording);
    result.outcome = world.outcome;
    return result;
}

RunResult runLive(const Scenario& scenario, const ScenarioParams& params, std::uint64_t seed,
                  const LiveOptions& options) {
    int scale = options.realMsPerVirtualSecond > 0 ? options.realMsPerVirtualSecond
                                                   : scenario.liveRealMsPerVirtualSecond;
    if (!scenario.liveUnavailable.empty())
        throw InvalidArgumentError("live replay of " + scenario.name + " is not available: " +
                                   scenario.liveUnavailable + " Replay it simulated instead.");
    if (scale > 100000) throw InvalidArgumentError("at most 100000 real ms per virtual second");
    World world;
    RunResult result;
    buildScenario(scenario, params, seed, world, result.recording);  // validates first

    Connection connection = Connection::open(options.endpoint);
    for (const auto& key : scenario.keys)
        if (connection.command({"EXISTS", key}).integer() != 0)
            throw InvalidArgumentError("live replay of " + scenario.name + " needs " + key +
                                       " to be absent on " + options.endpoint.display() +
                                       "; it exists (use an empty test server)");
    std::optional<ScratchDirectory> scratch;
    std::string storePath = options.storePath;
    if (storePath.empty()) {
        scratch.emplace();
        storePath = scratch->file("reports.db");
    }
    FencedStore store(storePath);
    LiveFencedResource resource(store);
    LiveRedisBackend backend(connection, scale);
    const auto start = std::chrono::steady_clock::now();
    LiveBackends live;
    live.redis = {&backend};
    live.store = &resource;
    live.divergences = &result.divergences;
    live.beforeStep = [&](VirtualMs t) {
        std::this_thread::sleep_until(start + std::chrono::microseconds(t * scale));
    };
    auto removeKeys = [&] {
        for (const auto& key : scenario.keys) connection.command({"DEL", key});
    };
    try {
        Simulator::runToEnd(world, result.recording, live);
    } catch (...) {
        try {
            removeKeys();
        } catch (...) {
        }
        throw;
    }
    removeKeys();
    result.outcome = world.outcome;
    return result;
}

}  // namespace lockscope::sim
