#pragma once
// "Explore faults": what sim::explore found for the story as it stands, as a dialog. A table
// says how many schedules of one or two faults break each property, with the shortest
// counterexample; the user may pick one to open as the story.

#include <QDialog>

#include "lockscope/sim/explorer.h"

class QTableWidget;

namespace lockscope::ui {

class ExploreDialog : public QDialog {
    Q_OBJECT
  public:
    ExploreDialog(const sim::ExploreResult& result, QWidget* parent = nullptr);

    // One row per property: its name, the schedules that break it, its shortest
    // counterexample (the caller owns the table).
    static QTableWidget* table(const sim::ExploreResult& result);

  signals:
    // The user asked to open this property's shortest counterexample; the dialog closes
    // when the receiver calls accept().
    void counterexampleChosen(int property);
};

}  // namespace lockscope::ui
