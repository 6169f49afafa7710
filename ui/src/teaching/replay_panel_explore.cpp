// ReplayPanel's "Explore faults": the simulator runs every schedule of one or two faults
// from its bounded menu (sim::explore) for the story as it stands, and a table says how
// many break each property, with the shortest counterexample, which opens as a story.
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "lockscope/sim/explorer.h"
#include "replay_panel.h"
#include "sim_text.h"

namespace lockscope::ui {

sim::ExploreResult ReplayPanel::exploreFaults(int budget) {
    return sim::explore(sim::captureScenario(*replay_), budget);
}

QTableWidget* ReplayPanel::exploreTable(const sim::ExploreResult& result) {
    auto* table = new QTableWidget(static_cast<int>(result.properties.size()), 3);
    table->setObjectName(QStringLiteral("exploreTable"));
    table->setHorizontalHeaderLabels(
        {tr("Property"), tr("Schedules that break it"), tr("Shortest counterexample")});
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    for (int r = 0; r < table->rowCount(); ++r) {
        const sim::PropertyResult& p = result.properties[r];
        table->setItem(r, 0, new QTableWidgetItem(qs(sim::toString(p.property))));
        table->setItem(r, 1,
                       new QTableWidgetItem(tr("%1 of %2").arg(p.breaks).arg(result.schedules)));
        table->setItem(r, 2,
                       new QTableWidgetItem(p.shortest ? qs(p.shortestText) : tr("none found")));
    }
    table->resizeColumnsToContents();
    return table;
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
    QDialog dialog(this);
    dialog.setWindowTitle(tr("Explore faults: %1").arg(qs(result.story)));
    auto* layout = new QVBoxLayout(&dialog);
    auto* intro = new QLabel(tr("%1 schedules of one or two faults (each instance crashes, or "
                                "pauses 500 ms, 5 s, 15 s or 40 s, at up to ten moments; and "
                                "%2 faults of the story's servers or network), simulated by the "
                                "same rules as the story.")
                                 .arg(result.schedules)
                                 .arg(result.serverFaults));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    QTableWidget* table = exploreTable(result);
    layout->addWidget(table);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* open =
        buttons->addButton(tr("Open the selected counterexample"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    connect(open, &QPushButton::clicked, &dialog, [&] {
        if (openCounterexample(result, table->currentRow())) dialog.accept();
    });
    layout->addWidget(buttons);
    dialog.resize(900, 300);
    dialog.exec();
}

}  // namespace lockscope::ui
