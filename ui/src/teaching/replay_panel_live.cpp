// ReplayPanel's live mode: the loaded scenario against a private redis-server on a worker
// thread, its outcome added to the table as a fourth column.
#include <QToolButton>

#include "live_run.h"
#include "lockscope/sim/run_verdict.h"
#include "lockscope/sim/scenario.h"
#include "outcome_comparison.h"
#include "replay_panel.h"
#include "replay_top_row.h"
#include "sim_text.h"

namespace lockscope::ui {

bool ReplayPanel::startLiveRun(int realMsPerVirtualSecond) {
    if (!live_->start(replay_->scenario().name, replay_->params(), replay_->seed(),
                      realMsPerVirtualSecond))
        return false;
    topRow_->liveButton()->setEnabled(false);
    int pace = realMsPerVirtualSecond ? realMsPerVirtualSecond
                                      : replay_->scenario().liveRealMsPerVirtualSecond;
    QString text =
        tr("Live: %1 is running against private redis-servers (1 virtual second = %2 ms)…")
            .arg(qs(replay_->scenario().name))
            .arg(pace);
    // What the live run does for real and what it only emulates, before anyone reads it.
    if (!replay_->scenario().liveNotes.empty())
        text += QLatin1Char(' ') + qs(replay_->scenario().liveNotes);
    showInfo(text);
    return true;
}

void ReplayPanel::showLiveResult() {
    topRow_->liveButton()->setEnabled(true);
    const LiveRunResult& r = live_->result();
    if (!r.ok) {
        showError(tr("Live run of %1 failed: %2").arg(r.scenario, r.error));
        return;
    }
    comparison_->setColumn(kLiveColumn,
                           r.servers > 1
                               ? tr("%1 live\n(%2 servers)").arg(r.scenario).arg(r.servers)
                               : tr("%1 live\n(redis-server)").arg(r.scenario),
                           r.outcome);
    fitPanes();
    QString verdict = r.matchesSimulation
                          ? tr("the real server told the same story as the simulation ✓")
                          : tr("the real server's story differs from the simulation ✗");
    QString text = tr("Live run of %1: %2 beats in %3 s; %4.")
                       .arg(r.scenario)
                       .arg(r.beats)
                       .arg(r.realMs / 1000.0, 0, 'f', 1)
                       .arg(verdict);
    text += QLatin1Char(' ') + qs(sim::runVerdict(r.outcome));
    // What was real and what was emulated stays beside the verdict.
    if (const sim::Scenario* s = sim::findScenario(r.scenario.toStdString());
        s && !s->liveNotes.empty())
        text += QLatin1Char(' ') + qs(s->liveNotes);
    if (!r.divergences.isEmpty())
        text +=
            QLatin1Char(' ') + tr("Divergences: %1").arg(r.divergences.join(QStringLiteral("; ")));
    if (r.matchesSimulation)
        showInfo(text);
    else
        showError(text);
}

}  // namespace lockscope::ui
