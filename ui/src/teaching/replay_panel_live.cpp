// ReplayPanel's live mode: LiveRun plays the loaded scenario against private redis-servers
// on a worker thread; the panel disables the button meanwhile, says what runs, and adds the
// outcome to the table as a fourth column.
#include <QToolButton>

#include "live_run.h"
#include "outcome_comparison.h"
#include "replay_panel.h"
#include "replay_top_row.h"

namespace lockscope::ui {

bool ReplayPanel::startLiveRun(int realMsPerVirtualSecond) {
    if (!live_->start(replay_->scenario().name, replay_->params(), replay_->seed(),
                      realMsPerVirtualSecond))
        return false;
    topRow_->liveButton()->setEnabled(false);
    showInfo(live_->runningText());
    return true;
}

void ReplayPanel::showLiveResult() {
    topRow_->liveButton()->setEnabled(true);
    const LiveRunResult& r = live_->result();
    if (r.ok) {
        comparison_->setColumn(kLiveColumn, live_->columnTitle(), r.outcome);
        fitPanes();
    }
    if (r.ok && r.matchesSimulation)
        showInfo(live_->resultText());
    else
        showError(live_->resultText());
}

}  // namespace lockscope::ui
