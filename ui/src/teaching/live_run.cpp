#include "live_run.h"

#include <QElapsedTimer>
#include <optional>

#include "lockscope/sandbox/local_redis_server.h"
#include "lockscope/sim/live_replay.h"
#include "lockscope/sim/transcript.h"
#include "sim_text.h"
#include "support/pool_run.h"

namespace lockscope::ui {
namespace {

// Runs on a pool thread: only values in, a value out.
LiveRunResult runOnSandbox(const std::string& name, const sim::ScenarioParams& params,
                           std::uint64_t seed, int realMsPerVirtualSecond) {
    LiveRunResult result;
    result.scenario = qs(name);
    QElapsedTimer timer;
    timer.start();
    try {
        const sim::Scenario& scenario = sim::scenarioNamed(name);
        sim::LiveOptions options;
        options.realMsPerVirtualSecond = realMsPerVirtualSecond;
        // A multi-server story starts its own servers, one per node; one sandbox serves
        // the others.
        std::optional<LocalRedisServer> server;
        if (!sim::runsOnPrivateServers(scenario, params)) {
            server.emplace();
            options.endpoint = server->endpoint();
        }
        sim::RunResult live = sim::runLive(scenario, params, seed, options);
        sim::RunResult simulated = sim::runSimulated(scenario, params, seed);
        result.outcome = live.outcome;
        result.beats = static_cast<int>(live.recording.beats.size());
        result.servers = static_cast<int>(live.servers.size());
        for (const std::string& d : live.divergences) result.divergences << qs(d);
        result.matchesSimulation =
            live.outcome == simulated.outcome &&
            sim::formatTranscript(live.recording) == sim::formatTranscript(simulated.recording);
        result.ok = true;
    } catch (const std::exception& e) {
        result.error = qs(e.what());
    }
    result.realMs = timer.elapsed();
    return result;
}

}  // namespace

LiveRun::LiveRun(QObject* parent) : QObject(parent) {
    connect(&watcher_, &QFutureWatcher<LiveRunResult>::finished, this, [this] {
        result_ = watcher_.result();
        emit finished();
    });
}

LiveRun::~LiveRun() {
    // The worker holds only values; waiting keeps its redis-server from outliving us.
    watcher_.waitForFinished();
}

bool LiveRun::start(const std::string& scenario, const sim::ScenarioParams& params,
                    std::uint64_t seed, int realMsPerVirtualSecond) {
    if (running()) return false;
    result_ = {};
    watcher_.setFuture(runOnPool([scenario, params, seed, realMsPerVirtualSecond] {
        return runOnSandbox(scenario, params, seed, realMsPerVirtualSecond);
    }));
    emit started();
    return true;
}

}  // namespace lockscope::ui
