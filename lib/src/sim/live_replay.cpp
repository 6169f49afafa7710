#include "lockscope/sim/live_replay.h"

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "lockscope/connection.h"
#include "lockscope/errors.h"
#include "lockscope/fenced_store.h"
#include "lockscope/lock_scripts.h"
#include "lockscope/script.h"
#include "lockscope/sim/live_fenced_resource.h"
#include "lockscope/sim/live_redis_backend.h"
#include "lockscope/sim/simulator.h"
#include "private_servers.h"

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

// Runs the World to its end against the given servers and a real SQLite fenced store,
// each step at its virtual time scaled onto the steady clock.
void runPaced(World& world, RunResult& result, LiveBackends live, int scale,
              const LiveOptions& options) {
    std::optional<ScratchDirectory> scratch;
    std::string storePath = options.storePath;
    if (storePath.empty()) {
        scratch.emplace();
        storePath = scratch->file("reports.db");
    }
    FencedStore store(storePath);
    LiveFencedResource resource(store);
    live.store = &resource;
    live.divergences = &result.divergences;
    live.realMsPerVirtualSecond = scale;
    const auto start = std::chrono::steady_clock::now();
    live.beforeStep = [&](VirtualMs t) {
        std::this_thread::sleep_until(start + std::chrono::microseconds(t * scale));
    };
    Simulator::runToEnd(world, result.recording, live);
}

// The user's server keeps its script cache between runs (a second live run, another
// client's SCRIPT LOAD), while the model starts empty: its EVALSHA would answer NOSCRIPT
// where the server runs the script. The model learns which of the stories' scripts the
// server has; flushing the cache instead would break other clients of a shared server that
// load their scripts once. A server that refuses SCRIPT EXISTS teaches nothing.
void learnScriptCache(Connection& connection, ModelRedis& model) {
    const std::vector<const Script*> scripts = {&scripts::acquire(), &scripts::acquireOrRenew(),
                                                &scripts::redlockAcquire(), &scripts::extend(),
                                                &scripts::release()};
    std::vector<std::string_view> argv = {"SCRIPT", "EXISTS"};
    for (const Script* script : scripts) argv.push_back(script->sha1());
    Reply cached;
    try {
        cached = connection.command(Connection::Argv(argv));
    } catch (const ReplyError&) {
        return;  // SCRIPT refused (renamed, or not allowed to this user)
    }
    if (!cached.view().isArray()) return;
    for (std::size_t i = 0; i < scripts.size(); ++i)
        if (cached[i].integer() == 1) model.loadScript(scripts[i]->sha1());
}

// A single-server story on the user's server: it must not hold the story's keys, and
// loses them again at the end, whatever happens.
void runOnEndpoint(const Scenario& scenario, World& world, RunResult& result, int scale,
                   const LiveOptions& options) {
    Connection connection = Connection::open(options.endpoint);
    for (const auto& key : scenario.keys)
        if (connection.command({"EXISTS", key}).integer() != 0)
            throw InvalidArgumentError("live replay of " + scenario.name + " needs " + key +
                                       " to be absent on " + options.endpoint.display() +
                                       "; it exists (use an empty test server)");
    learnScriptCache(connection, world.redis());
    LiveRedisBackend backend(connection, scale);
    LiveBackends live;
    live.redis = {&backend};
    result.servers = {options.endpoint.display()};
    auto removeKeys = [&] {
        for (const auto& key : scenario.keys) connection.command({"DEL", key});
    };
    try {
        runPaced(world, result, live, scale, options);
    } catch (...) {
        try {
            removeKeys();
        } catch (...) {
        }
        throw;
    }
    removeKeys();
}

// A multi-server story on servers of its own: they start empty and stop at the end.
void runOnPrivateServers(World& world, RunResult& result, int scale, const LiveOptions& options) {
    PrivateServers servers(world, scale);
    LiveBackends live;
    live.redis = servers.backends();
    live.servers = &servers;
    result.servers = servers.describe();
    runPaced(world, result, live, scale, options);
}

}  // namespace

RunResult runSimulated(const Scenario& scenario, const ScenarioParams& params, std::uint64_t seed) {
    World world;
    RunResult result;
    buildScenario(scenario, params, seed, world, result.recording);
    Simulator::runToEnd(world, result.recording);
    result.outcome = world.outcome;
    return result;
}

bool runsOnPrivateServers(const Scenario& scenario, const ScenarioParams& params) {
    World world;
    Recording recording;
    buildScenario(scenario, params, 0, world, recording);
    return world.nodes.size() > 1;
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
    if (world.nodes.size() > 1)
        runOnPrivateServers(world, result, scale, options);
    else
        runOnEndpoint(scenario, world, result, scale, options);
    result.outcome = world.outcome;
    return result;
}

}  // namespace lockscope::sim
