#pragma once
// The compare table: the measures the story declares as rows (the report jobs': emails
// sent, duplicate runs, foreign deletions...; the atomic counter's: lost updates and
// commands per update), one column per run: the two references run to the end, the story
// loaded now so far, and a live run. Harmful counts are tinted red, protective ones green,
// costs not at all.

#include <QTableWidget>

#include "lockscope/sim/outcome.h"

namespace lockscope::ui {

class OutcomeComparison : public QTableWidget {
    Q_OBJECT
  public:
    explicit OutcomeComparison(QWidget* parent = nullptr);

    // The rows to show: the story's measures (sim::comparisonRowsFor). Other rows clear every
    // column.
    void setRows(const std::vector<sim::ComparisonRow>& rows);
    const std::vector<sim::ComparisonRow>& rows() const { return rows_; }
    // Sets (or adds) the column with this header.
    void setColumn(int column, const QString& header, const sim::OutcomeSummary& outcome);
    // Shows or hides a column (the whole-night totals wait for the story's end); a hidden
    // column takes no width.
    void setColumnShown(int column, bool shown);
    // The number shown in a cell (tests).
    int value(int row, int column) const;
    QStringList visibleRowLabels() const;
    // A row's label as the header draws it: whole, or elided with "…" when the table is
    // narrow (the label's tooltip has it whole).
    QString shownRowLabel(int row) const;
    // The size that shows every row and column without a scroll bar: the row labels, each
    // column as wide as its header's longest line, and the rows at the font's height.
    QSize neededSize() const;

    // The width a column needs to show its header whole: its longest line, or the least
    // section width (the longest header word), whichever is wider.
    int columnWidth(int column) const;
    // The narrowest the table can be without scrolling sideways: every column whole and
    // the row labels a few letters wide (elided, whole in their tooltips).
    int leastWidth() const;

  protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    void tint(int row, int column, int value);
    QFont cellFont() const;  // the table's font, bold: the numbers
    void fitHeaderLines();
    // The columns keep their headers' width; the row labels get what is left and are
    // elided there (each has its whole text as a tooltip), so the table never scrolls
    // sideways for a long label.
    void fitRowLabels();
    int leastLabelWidth() const;

    // A copy: a recorded story's scenario (and so its measures) lives only as long as its
    // Replay.
    std::vector<sim::ComparisonRow> rows_;
};

}  // namespace lockscope::ui
