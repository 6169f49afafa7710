#pragma once
// Live mode: the loaded scenario, with its parameters and seed, run against real
// redis-servers (private sandboxes on free loopback ports: one, or one per node of a
// multi-server story) and a real SQLite fenced store,
// on a worker thread (QtConcurrent), never on the GUI thread. The result says whether the
// real server told the same story as the simulation, beat for beat.

#include <QFutureWatcher>
#include <QObject>
#include <QStringList>

#include "lockscope/sim/outcome.h"
#include "lockscope/sim/scenario_params.h"

namespace lockscope::ui {

struct LiveRunResult {
    QString scenario;
    bool ok = false;
    QString error;
    sim::OutcomeSummary outcome;
    int beats = 0;
    int servers = 0;                 // redis-servers it ran on (one per node of the story)
    QStringList divergences;         // replies where the model and the server disagreed
    bool matchesSimulation = false;  // same transcript and outcome as runSimulated
    qint64 realMs = 0;
};

class LiveRun : public QObject {
    Q_OBJECT
  public:
    explicit LiveRun(QObject* parent = nullptr);
    ~LiveRun() override;

    bool running() const { return watcher_.isRunning(); }
    // realMsPerVirtualSecond 0: the scenario's default pace. Ignored while running.
    bool start(const std::string& scenario, const sim::ScenarioParams& params, std::uint64_t seed,
               int realMsPerVirtualSecond = 0);
    const LiveRunResult& result() const { return result_; }
    // What the panel tells the user: while it runs (the pace, and what is real and what
    // only emulated), the table column's title, and the result (failure, or the verdict and
    // whether the real server told the same story as the simulation).
    QString runningText() const;
    QString columnTitle() const;
    QString resultText() const;

  signals:
    void started();
    void finished();  // result() holds what happened

  private:
    QFutureWatcher<LiveRunResult> watcher_;
    LiveRunResult result_;
    std::string scenario_;  // the last started
    int pace_ = 0;          // real ms per virtual second it runs at
};

}  // namespace lockscope::ui
