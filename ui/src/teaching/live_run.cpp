#include "live_run.h"

#include <QElapsedTimer>
#include <optional>

#include "lockscope/sandbox/local_redis_server.h"
#include "lockscope/sim/live_replay.h"
#include "lockscope/sim/run_verdict.h"
#include "lockscope/sim/scenario.h"
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
    scenario_ = scenario;
    pace_ = realMsPerVirtualSecond;
    if (const sim::Scenario* s = sim::findScenario(scenario); s && pace_ == 0)
        pace_ = s->liveRealMsPerVirtualSecond;
    watcher_.setFuture(runOnPool([scenario, params, seed, realMsPerVirtualSecond] {
        return runOnSandbox(scenario, params, seed, realMsPerVirtualSecond);
    }));
    emit started();
    return true;
}

// What the live run does for real and what it only emulates, beside every word about it.
static QString liveNotes(const std::string& scenario) {
    const sim::Scenario* s = sim::findScenario(scenario);
    return s && !s->liveNotes.empty() ? QLatin1Char(' ') + qs(s->liveNotes) : QString();
}

QString LiveRun::runningText() const {
    return tr("Live: %1 is running against private redis-servers (1 virtual second = %2 ms)…")
               .arg(qs(scenario_))
               .arg(pace_) +
           liveNotes(scenario_);
}

QString LiveRun::columnTitle() const {
    const LiveRunResult& r = result_;
    return r.servers > 1 ? tr("%1 live\n(%2 servers)").arg(r.scenario).arg(r.servers)
                         : tr("%1 live\n(redis-server)").arg(r.scenario);
}

QString LiveRun::resultText() const {
    const LiveRunResult& r = result_;
    if (!r.ok) return tr("Live run of %1 failed: %2").arg(r.scenario, r.error);
    QString verdict = r.matchesSimulation
                          ? tr("the real server told the same story as the simulation ✓")
                          : tr("the real server's story differs from the simulation ✗");
    QString text = tr("Live run of %1: %2 beats in %3 s; %4.")
                       .arg(r.scenario)
                       .arg(r.beats)
                       .arg(r.realMs / 1000.0, 0, 'f', 1)
                       .arg(verdict);
    text += QLatin1Char(' ') + qs(sim::runVerdict(r.outcome)) + liveNotes(r.scenario.toStdString());
    if (!r.divergences.isEmpty())
        text +=
            QLatin1Char(' ') + tr("Divergences: %1").arg(r.divergences.join(QStringLiteral("; ")));
    return text;
}

}  // namespace lockscope::ui
