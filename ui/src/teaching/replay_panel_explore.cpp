// ReplayPanel's "Explore faults": the simulator runs every schedule of one or two faults
// from its bounded menu (sim::explore) for the story as it stands; ExploreDialog shows the
// result, and a chosen shortest counterexample opens as the story.
#include <QTableWidget>

#include "explore_dialog.h"
#include "lockscope/sim/explorer.h"
#include "replay_panel.h"
#include "sim_text.h"

namespace lockscope::ui {

sim::ExploreResult ReplayPanel::exploreFaults(int budget) {
    return sim::explore(sim::captureScenario(*replay_), budget);
}

QTableWidget* ReplayPanel::exploreTable(const sim::ExploreResult& result) {
    return ExploreDialog::table(result);
}

bool ReplayPanel::openCounterexample(const sim::ExploreResult& result, int property) {
    if (property < 0 || property >= static_cast<int>(result.properties.size()) ||
        !result.properties[property].shortest)
        return false;
    adoptReplay(sim::openScenario(*result.properties[property].shortest));
    showInfo(tr("The shortest schedule that breaks %1: %2")
                 .arg(qs(sim::toString(result.properties[property].property)),
                      qs(result.properties[property].shortestText)));
    return true;
}

void ReplayPanel::exploreWithDialog() {
    setPlaying(false);
    sim::ExploreResult result;
    try {
        result = exploreFaults(500);
    } catch (const std::exception& e) {
        showError(qs(e.what()));
        return;
    }
    ExploreDialog dialog(result, this);
    connect(&dialog, &ExploreDialog::counterexampleChosen, this, [&](int property) {
        if (openCounterexample(result, property)) dialog.accept();
    });
    dialog.exec();
}

}  // namespace lockscope::ui
