#include "widgets/lock_inspector_view_columns.h"

#include <QEvent>
#include <QFontMetrics>
#include <QGuiApplication>
#include <QHeaderView>
#include <QScopedValueRollback>
#include <QStyle>
#include <QTableView>
#include <vector>

#include "models/lock_table_model.h"

namespace lockscope::ui {
namespace {

struct TextWidth {
    int preferred;  // with room to spare (one connection, a wide window)
    int least;      // the narrowest it gets before the table scrolls
};

// The text columns, by LockTableModel::Column; the least widths let every column of a
// cluster (Instance and Node shown) fit beside the numbers at 1280 px with the sidebar open.
TextWidth textWidth(int column) {
    switch (column) {
        case LockTableModel::Instance:
            return {130, 80};
        case LockTableModel::Key:
            return {200, 115};  // elided in the middle: "job-lock:{…}:nightly" keeps both ends
        case LockTableModel::Resource:
            return {90, 55};
        case LockTableModel::Kind:  // elided at the end, as the holder: the start says most
        case LockTableModel::Holder:
            return {100, 60};
        case LockTableModel::Findings:
            return {160, 100};  // room for a badge or two; the tooltip and detail say all
        case LockTableModel::Node:
            return {150, 75};
        case LockTableModel::Alive:
            return {135, 90};  // "unknown" beside its colour
        default:
            return {80, 60};
    }
}

bool isNumber(int column) {
    return column == LockTableModel::Remaining || column == LockTableModel::Fence ||
           column == LockTableModel::SeenFor || column == LockTableModel::Age ||
           column == LockTableModel::Renewals;
}

// What a number column is sized for before its values grow past it (an hour, ten thousand
// renewals): its width then grows with the values on screen, never shrinking back, so the
// columns do not twitch as seconds tick.
QString usualLongest(int column) {
    switch (column) {
        case LockTableModel::Remaining:
        case LockTableModel::SeenFor:
            return QStringLiteral("59 min 59 s");
        case LockTableModel::Age:
            return QStringLiteral("≈ 59 min 59 s");
        case LockTableModel::Fence:
            return QStringLiteral("99999");
        default:
            return QStringLiteral("9999");
    }
}

constexpr int kCellPadding = 12;    // the item's text margins and the grid line, both sides
constexpr int kTtlBarPadding = 20;  // LockTableDelegate::paintTtl's track and text insets

}  // namespace

LockTableColumns::LockTableColumns(QTableView& table)
    : QObject(&table), table_(table), viewport_(table.viewport()) {
    QHeaderView* header = table_.horizontalHeader();
    // The last column takes the rest of the width, set by fit(): the header's own stretch
    // keeps the last column's earlier width when the others leave it less, off screen.
    header->setStretchLastSection(false);
    for (int c = 0; c < LockTableModel::ColumnCount; ++c)
        table_.setColumnWidth(c, isNumber(c) ? numberWidth(c) : textWidth(c).preferred);
    // Node is shown beside Instance; it stays the last column of the model, so saved header
    // layouts still fit (it is hidden but on a cluster, so the others keep their places).
    header->moveSection(LockTableModel::Node, LockTableModel::Instance + 1);
    // Whether the holder is alive reads with who holds it.
    header->moveSection(LockTableModel::Alive, header->visualIndex(LockTableModel::Holder) + 1);

    // Values grow (a countdown past the hour, a new fence): a number column follows them
    // once a second, but not while a column is being dragged.
    fitTimer_.setInterval(1000);
    connect(&fitTimer_, &QTimer::timeout, this, [this] {
        if (QGuiApplication::mouseButtons() == Qt::NoButton) fit();
    });
    fitTimer_.start();
    connect(header, &QHeaderView::sectionResized, this, &LockTableColumns::rememberOperatorWidth);
    // The sorted column's title has the sort arrow beside it.
    connect(header, &QHeaderView::sortIndicatorChanged, this, &LockTableColumns::fit);
    viewport_->installEventFilter(this);
}

bool LockTableColumns::eventFilter(QObject* watched, QEvent* event) {
    if (watched == viewport_ && event->type() == QEvent::Resize) fit();
    return QObject::eventFilter(watched, event);
}

void LockTableColumns::rememberOperatorWidth(int column, int oldSize, int newSize) {
    // Showing or hiding a column resizes it from or to 0, and fit() gives the last column the
    // rest of the width: neither is the operator's choice.
    if (fitting_ || oldSize <= 0 || newSize <= 0 || column == lastShownColumn()) return;
    operatorWidths_[column] = newSize;
}

int LockTableColumns::lastShownColumn() const {
    const QHeaderView* header = table_.horizontalHeader();
    for (int visual = header->count() - 1; visual >= 0; --visual) {
        const int column = header->logicalIndex(visual);
        if (!header->isSectionHidden(column)) return column;
    }
    return -1;
}

int LockTableColumns::headerWidth(int column) const {
    const QHeaderView* header = table_.horizontalHeader();
    const QStyle* style = header->style();
    const int margin = style->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    const QString title =
        table_.model() ? table_.model()->headerData(column, Qt::Horizontal).toString() : QString();
    int width = QFontMetrics(header->font()).horizontalAdvance(title) + 4 * margin;
    if (header->isSortIndicatorShown() && header->sortIndicatorSection() == column)
        width += style->pixelMetric(QStyle::PM_HeaderMarkSize, nullptr, header) + 2 * margin;
    return width;
}

int LockTableColumns::numberWidth(int column) {
    const QFontMetrics metrics(table_.font());
    const int extra = kCellPadding + (column == LockTableModel::Remaining ? kTtlBarPadding : 0);
    int width = metrics.horizontalAdvance(usualLongest(column)) + extra;
    // Longer values on screen (a lock held for hours, a fence in the millions) widen it.
    const int height = table_.viewport()->height();
    const int first = table_.rowAt(0);
    int lastRow = table_.rowAt(height - 1);
    if (lastRow < 0 && table_.model()) lastRow = table_.model()->rowCount() - 1;
    for (int row = first; first >= 0 && row <= lastRow; ++row)
        width = std::max(
            width, metrics.horizontalAdvance(table_.model()->index(row, column).data().toString()) +
                       extra);
    width = std::max(width, headerWidth(column));
    // Never narrower than it was: a countdown going from "1 h 02 min" to "59 min 59 s" keeps
    // its column still.
    auto& widest = widestNumbers_[column];
    widest = std::max(widest, width);
    return widest;
}

void LockTableColumns::fit() {
    if (fitting_) return;
    const QScopedValueRollback<bool> ours(fitting_, true);
    const QHeaderView* header = table_.horizontalHeader();
    int room = table_.viewport()->width();
    const int last = lastShownColumn();
    if (room <= 0 || last < 0) return;
    // The operator's widths and the numbers first; the text columns share what is left.
    std::vector<int> text;
    int preferred = 0, least = 0;
    for (int visual = 0; visual < header->count(); ++visual) {
        const int column = header->logicalIndex(visual);
        if (header->isSectionHidden(column)) continue;
        if (auto own = operatorWidths_.find(column); own != operatorWidths_.end()) {
            room -= own->second;
        } else if (isNumber(column)) {
            const int width = numberWidth(column);
            if (column != last) table_.setColumnWidth(column, width);
            room -= width;
        } else {
            text.push_back(column);
            preferred += textWidth(column).preferred;
            least += textWidth(column).least;
        }
    }
    // Each text column gives up the same share of what it has above its least width.
    const double share = preferred <= room ? 1.0
                         : least >= room   ? 0.0
                                           : double(room - least) / double(preferred - least);
    for (int column : text) {
        const TextWidth w = textWidth(column);
        const int width = w.least + int((w.preferred - w.least) * share);
        if (column != last) table_.setColumnWidth(column, width);
        room -= width;
    }
    // The last column (Findings) also takes what is left, as a stretched last section would.
    if (operatorWidths_.count(last) == 0) {
        const int own = isNumber(last)
                            ? numberWidth(last)
                            : textWidth(last).least +
                                  int((textWidth(last).preferred - textWidth(last).least) * share);
        table_.setColumnWidth(last, own + std::max(0, room));
    }
}

}  // namespace lockscope::ui
