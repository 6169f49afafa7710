#include "explore_dialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "sim_text.h"

namespace lockscope::ui {

ExploreDialog::ExploreDialog(const sim::ExploreResult& result, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Explore faults: %1").arg(qs(result.story)));
    auto* layout = new QVBoxLayout(this);
    auto* intro = new QLabel(tr("%1 schedules of one or two faults (each instance crashes, or "
                                "pauses 500 ms, 5 s, 15 s or 40 s, at up to ten moments; and "
                                "%2 faults of the story's servers or network), simulated by the "
                                "same rules as the story.")
                                 .arg(result.schedules)
                                 .arg(result.serverFaults));
    intro->setWordWrap(true);
    layout->addWidget(intro);
    QTableWidget* properties = table(result);
    properties->setParent(this);
    layout->addWidget(properties);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    QPushButton* open =
        buttons->addButton(tr("Open the selected counterexample"), QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(open, &QPushButton::clicked, this,
            [this, properties] { emit counterexampleChosen(properties->currentRow()); });
    layout->addWidget(buttons);
    resize(900, 300);
}

QTableWidget* ExploreDialog::table(const sim::ExploreResult& result) {
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

}  // namespace lockscope::ui
