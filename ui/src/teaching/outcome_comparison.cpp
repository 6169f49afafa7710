#include "outcome_comparison.h"

#include <QEvent>
#include <QHeaderView>
#include <algorithm>

#include "lane_colors.h"
#include "sim_text.h"

namespace lockscope::ui {

OutcomeComparison::OutcomeComparison(QWidget* parent) : QTableWidget(parent) {
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    QFont f = font();
    f.setPixelSize(16);
    setFont(f);
    horizontalHeader()->setFont(f);
    verticalHeader()->setFont(f);
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    verticalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    horizontalHeader()->setDefaultAlignment(Qt::AlignCenter | Qt::Alignment(Qt::TextWordWrap));
    setWordWrap(true);
    fitHeaderLines();
    // A column never narrower than its longest header word: below that the header wraps
    // into single letters. A narrow pane scrolls sideways instead.
    horizontalHeader()->setMinimumSectionSize(
        QFontMetrics(f).horizontalAdvance(QStringLiteral("broken-report")) + 14);
}

void OutcomeComparison::setRows(const std::vector<sim::ComparisonRow>& rows) {
    auto sameLabels = [&] {
        if (rows.size() != rows_.size()) return false;
        for (std::size_t r = 0; r < rows.size(); ++r)
            if (rows[r].label != rows_[r].label) return false;
        return true;
    };
    if (sameLabels() && rowCount() == static_cast<int>(rows.size())) return;
    rows_ = rows;
    // The numbers of the other rows mean something else: no column survives.
    clearContents();
    setColumnCount(0);
    fitHeaderLines();
    setRowCount(static_cast<int>(rows.size()));
    QStringList labels;
    for (const auto& row : rows) labels << qs(row.label);
    setVerticalHeaderLabels(labels);
}

// Two lines of header ("broken-report" / "(whole night)"); three once a live column may
// wrap "failover live" to "failover" / "live" / "(3 servers)". A line more than needed is
// a row fewer on a 720p projector.
void OutcomeComparison::fitHeaderLines() {
    const int lines = columnCount() > 3 ? 3 : 2;
    horizontalHeader()->setMinimumHeight(QFontMetrics(horizontalHeader()->font()).height() * lines +
                                         16);
}

void OutcomeComparison::setColumn(int column, const QString& header,
                                  const sim::OutcomeSummary& outcome) {
    if (column >= columnCount()) setColumnCount(column + 1);
    setHorizontalHeaderItem(column, new QTableWidgetItem(header));
    fitHeaderLines();
    const auto& rows = rows_;
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        int v = rows[r].value(outcome);
        auto* item = new QTableWidgetItem(QString::number(v));
        item->setTextAlignment(Qt::AlignCenter);
        item->setData(Qt::UserRole, v);
        QFont f = font();
        f.setBold(true);
        item->setFont(f);
        setItem(r, column, item);
        tint(r, column, v);
    }
}

int OutcomeComparison::value(int row, int column) const {
    const QTableWidgetItem* cell = item(row, column);
    return cell ? cell->data(Qt::UserRole).toInt() : -1;
}

void OutcomeComparison::tint(int row, int column, int v) {
    QTableWidgetItem* cell = item(row, column);
    if (!cell) return;
    const QPalette& pal = palette();
    QColor color;
    switch (rows_.at(static_cast<std::size_t>(row)).sense) {
        case sim::RowSense::ExactlyOne:
            color = v == 1 ? LaneColors::good(pal) : v > 1 ? LaneColors::bad(pal) : QColor();
            break;
        case sim::RowSense::Protection:
            color = v > 0 ? LaneColors::good(pal) : QColor();
            break;
        case sim::RowSense::Harm:
            color = v > 0 ? LaneColors::bad(pal) : LaneColors::good(pal);
            break;
        case sim::RowSense::Cost:  // a price, not a verdict: no tint
            break;
    }
    if (color.isValid()) {
        QColor fill = color;
        fill.setAlpha(LaneColors::isDark(pal) ? 90 : 55);
        cell->setBackground(fill);
    } else {
        cell->setBackground(QBrush());
    }
    cell->setForeground(pal.color(QPalette::Text));
}

QStringList OutcomeComparison::visibleRowLabels() const {
    QStringList labels;
    for (int r = 0; r < rowCount(); ++r)
        if (!isRowHidden(r)) labels << verticalHeaderItem(r)->text();
    return labels;
}

QSize OutcomeComparison::neededSize() const {
    const int frame = 2 * frameWidth();
    const QFontMetrics header(horizontalHeader()->font());
    int width = verticalHeader()->sizeHint().width() + frame;
    for (int c = 0; c < columnCount(); ++c) {
        const QTableWidgetItem* item = horizontalHeaderItem(c);
        int widest = 0;
        for (const QString& line : (item ? item->text() : QString()).split(QLatin1Char('\n')))
            widest = std::max(widest, header.horizontalAdvance(line));
        width += std::max(horizontalHeader()->minimumSectionSize(), widest + 14);
    }
    // Bold cells at the table's (zoomed) font, a little air above and below.
    QFont bold = font();
    bold.setBold(true);
    const int row =
        std::max(QFontMetrics(bold).height() + 4, verticalHeader()->minimumSectionSize());
    return {width, horizontalHeader()->minimumHeight() + rowCount() * row + frame};
}

void OutcomeComparison::changeEvent(QEvent* event) {
    QTableWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        for (int c = 0; c < columnCount(); ++c)
            for (int r = 0; r < rowCount(); ++r) tint(r, c, value(r, c));
}

}  // namespace lockscope::ui
