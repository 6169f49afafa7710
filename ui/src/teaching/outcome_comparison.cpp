#include "outcome_comparison.h"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QStyle>
#include <algorithm>

#include "lane_colors.h"
#include "sim_text.h"

namespace lockscope::ui {

namespace {

// The row labels: one too long for the header's width ends in "…" (QHeaderView itself
// would cut it mid-letter); the item's tooltip has it whole.
class ElidedRowLabels : public QHeaderView {
  public:
    explicit ElidedRowLabels(QWidget* parent) : QHeaderView(Qt::Vertical, parent) {}

    QString shown(const QString& label) const {
        const int margin = style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, this);
        return fontMetrics().elidedText(label, Qt::ElideRight, width() - 2 * margin - 2);
    }

  protected:
    void initStyleOptionForIndex(QStyleOptionHeader* option, int logicalIndex) const override {
        QHeaderView::initStyleOptionForIndex(option, logicalIndex);
        option->text = shown(option->text);
    }
};

}  // namespace

OutcomeComparison::OutcomeComparison(QWidget* parent) : QTableWidget(parent) {
    setVerticalHeader(new ElidedRowLabels(this));
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setFocusPolicy(Qt::NoFocus);
    QFont f = font();
    f.setPixelSize(16);
    setFont(f);
    horizontalHeader()->setFont(f);
    verticalHeader()->setFont(f);
    // Each column as wide as its header needs (fitRowLabels): a "crash_instance=0" column is
    // wider than a "this run" one, which equal stretched sections would cut.
    horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
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
    // A label elided in a narrow table is whole in its tooltip.
    for (int r = 0; r < rowCount(); ++r) verticalHeaderItem(r)->setToolTip(labels[r]);
    fitRowLabels();
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
    fitRowLabels();
    const auto& rows = rows_;
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        int v = rows[r].value(outcome);
        auto* item = new QTableWidgetItem(QString::number(v));
        item->setTextAlignment(Qt::AlignCenter);
        item->setData(Qt::UserRole, v);
        item->setFont(cellFont());
        setItem(r, column, item);
        tint(r, column, v);
    }
}

void OutcomeComparison::setColumnShown(int column, bool shown) {
    if (column >= columnCount() || isColumnHidden(column) == !shown) return;
    setColumnHidden(column, !shown);
    fitRowLabels();
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

QString OutcomeComparison::shownRowLabel(int row) const {
    const QTableWidgetItem* item = verticalHeaderItem(row);
    const auto* labels = dynamic_cast<const ElidedRowLabels*>(verticalHeader());
    if (!item) return {};
    return labels ? labels->shown(item->text()) : item->text();
}

QStringList OutcomeComparison::visibleRowLabels() const {
    QStringList labels;
    for (int r = 0; r < rowCount(); ++r)
        if (!isRowHidden(r)) labels << verticalHeaderItem(r)->text();
    return labels;
}

int OutcomeComparison::columnWidth(int column) const {
    if (isColumnHidden(column)) return 0;  // the totals kept for the end take no room
    const QFontMetrics header(horizontalHeader()->font());
    const QTableWidgetItem* item = horizontalHeaderItem(column);
    int widest = 0;
    for (const QString& line : (item ? item->text() : QString()).split(QLatin1Char('\n')))
        widest = std::max(widest, header.horizontalAdvance(line));
    return std::max(horizontalHeader()->minimumSectionSize(), widest + 14);
}

int OutcomeComparison::leastLabelWidth() const {
    // Never narrower than a few letters: a label needs "Emails…" to be recognised.
    return QFontMetrics(verticalHeader()->font()).horizontalAdvance(QStringLiteral("Emails…")) +
           2 * style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, verticalHeader());
}

int OutcomeComparison::leastWidth() const {
    int columns = 0;
    for (int c = 0; c < columnCount(); ++c) columns += columnWidth(c);
    const int scrollBar = verticalScrollBar()->isVisible() ? verticalScrollBar()->width() : 0;
    return 2 * frameWidth() + scrollBar + leastLabelWidth() + columns;
}

void OutcomeComparison::fitRowLabels() {
    int columns = 0;
    for (int c = 0; c < columnCount(); ++c) columns += columnWidth(c);
    const int scrollBar = verticalScrollBar()->isVisible() ? verticalScrollBar()->width() : 0;
    const int room = width() - 2 * frameWidth() - scrollBar;
    const int least = leastLabelWidth();
    const int labels = std::max(least, room - columns);
    if (verticalHeader()->maximumWidth() != labels) verticalHeader()->setMaximumWidth(labels);
    // What the labels leave is shared by the shown columns, as a stretched header did.
    const int spare =
        std::max(0, room - columns - std::min(labels, verticalHeader()->sizeHint().width()));
    int shown = 0;
    for (int c = 0; c < columnCount(); ++c) shown += isColumnHidden(c) ? 0 : 1;
    for (int c = 0, nth = 0; c < columnCount(); ++c) {
        if (isColumnHidden(c)) continue;
        horizontalHeader()->resizeSection(
            c, columnWidth(c) + spare / shown + (nth++ < spare % shown ? 1 : 0));
    }
    updateGeometries();
}

void OutcomeComparison::resizeEvent(QResizeEvent* event) {
    fitRowLabels();
    QTableWidget::resizeEvent(event);
}

QSize OutcomeComparison::neededSize() const {
    const int frame = 2 * frameWidth();
    int width = verticalHeader()->sizeHint().width() + frame;
    for (int c = 0; c < columnCount(); ++c) width += columnWidth(c);
    // Bold cells at the table's (zoomed) font, a little air above and below.
    QFont bold = font();
    bold.setBold(true);
    const int row =
        std::max(QFontMetrics(bold).height() + 4, verticalHeader()->minimumSectionSize());
    return {width, horizontalHeader()->minimumHeight() + rowCount() * row + frame};
}

QFont OutcomeComparison::cellFont() const {
    QFont f = font();
    f.setBold(true);
    return f;
}

void OutcomeComparison::changeEvent(QEvent* event) {
    QTableWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        for (int c = 0; c < columnCount(); ++c)
            for (int r = 0; r < rowCount(); ++r) tint(r, c, value(r, c));
    // A cell's font is its own copy, made when the column was set: every cell follows the
    // table's font (the presenter zoom and back), so no column keeps an old size.
    if (event->type() == QEvent::FontChange) {
        const QFont cells = cellFont();
        for (int c = 0; c < columnCount(); ++c)
            for (int r = 0; r < rowCount(); ++r)
                if (QTableWidgetItem* cell = item(r, c)) cell->setFont(cells);
        horizontalHeader()->setFont(font());
        verticalHeader()->setFont(font());
        fitHeaderLines();
        fitRowLabels();
    }
}

}  // namespace lockscope::ui
