#pragma once
// The broken-vs-fixed table: the headline outcome fields (emails sent, duplicate runs,
// foreign deletions, corrupted writes, stale writes rejected) as rows, one column per
// scenario run: the guide's broken and fixed jobs run to the end, and the story loaded
// now, so far. Harmful counts are tinted red, protective ones green.

#include <QTableWidget>

#include "lockscope/sim/outcome.h"

namespace lockscope::ui {

class OutcomeComparison : public QTableWidget {
    Q_OBJECT
  public:
    explicit OutcomeComparison(QWidget* parent = nullptr);

    // Sets (or adds) the column with this header.
    void setColumn(int column, const QString& header, const sim::OutcomeSummary& outcome);
    // The number shown in a cell (tests).
    int value(int row, int column) const;
    static int comparisonRowCount() { return static_cast<int>(sim::comparisonRows().size()); }

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void tint(int row, int column, int value);
};

}  // namespace lockscope::ui
