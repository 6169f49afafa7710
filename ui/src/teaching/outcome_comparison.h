#pragma once
// The broken-vs-fixed table: the story's headline outcome fields as rows (the report
// jobs': emails sent, duplicate runs, foreign deletions...; the multi-server stories':
// clients holding at once, stale writes, seats sold twice), one column per run: the two
// references run to the end, the story loaded now so far, and a live run. Harmful counts
// are tinted red, protective ones green.

#include <QTableWidget>

#include "lockscope/sim/outcome.h"

namespace lockscope::ui {

class OutcomeComparison : public QTableWidget {
    Q_OBJECT
  public:
    explicit OutcomeComparison(QWidget* parent = nullptr);

    // The rows to show (sim::comparisonRowsFor the story). Other rows clear every column.
    void setRows(const std::vector<sim::ComparisonRow>& rows);
    const std::vector<sim::ComparisonRow>& rows() const { return *rows_; }
    // Sets (or adds) the column with this header.
    void setColumn(int column, const QString& header, const sim::OutcomeSummary& outcome);
    // The number shown in a cell (tests).
    int value(int row, int column) const;
    // Shows only the rows that count something in one of these outcomes (the story as told,
    // with its fix): an "Emails sent" row has nothing to say about the expiry race. When
    // none does, the harm rows stay (their 0 is the story's point).
    void showRowsOf(const std::vector<sim::OutcomeSummary>& outcomes);
    QStringList visibleRowLabels() const;

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void tint(int row, int column, int value);

    const std::vector<sim::ComparisonRow>* rows_ = nullptr;
};

}  // namespace lockscope::ui
