#include "slide_table.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QTableWidgetItem>
#include <algorithm>
#include <numeric>

#include "outcome_comparison.h"

namespace lockscope::ui {

namespace {

QFont slideFont(int pixels, bool bold) {
    QFont f;
    f.setPixelSize(pixels);
    f.setBold(bold);
    return f;
}

// Air around a cell's text, in proportion to the type.
double padding(int px) {
    return std::max(3.0, px * 0.35);
}

constexpr int kLabelLines = 2;  // a label wraps onto a second line, never a third
constexpr auto kWrap = Qt::TextWordWrap;

}  // namespace

SlideTable::SlideTable(const OutcomeComparison& comparison) {
    std::vector<int> columns;
    for (int c = 0; c < comparison.columnCount(); ++c) {
        if (comparison.isColumnHidden(c)) continue;
        columns.push_back(c);
        const QTableWidgetItem* header = comparison.horizontalHeaderItem(c);
        headers_ << (header ? header->text() : QString());
    }
    for (int r = 0; r < comparison.rowCount(); ++r) {
        if (comparison.isRowHidden(r)) continue;
        const QTableWidgetItem* label = comparison.verticalHeaderItem(r);
        labels_ << (label ? label->text() : QString());
        std::vector<Cell> row;
        for (int c : columns) {
            const QTableWidgetItem* item = comparison.item(r, c);
            Cell cell;
            if (item) {
                cell.text = item->text();
                if (item->background().style() != Qt::NoBrush)
                    cell.fill = item->background().color();
            }
            row.push_back(cell);
        }
        cells_.push_back(row);
    }
}

SlideTable::Layout SlideTable::layout(double width, int px) const {
    Layout out;
    const QFontMetricsF plain(slideFont(px, false)), bold(slideFont(px, true));
    const double pad = padding(px);
    // Each column as wide as its widest header line or number.
    int headerLines = 1;
    for (int c = 0; c < headers_.size(); ++c) {
        const QStringList lines = headers_[c].split(QLatin1Char('\n'));
        headerLines = std::max(headerLines, static_cast<int>(lines.size()));
        double widest = 0;
        for (const QString& line : lines) widest = std::max(widest, plain.horizontalAdvance(line));
        for (const auto& row : cells_)
            widest = std::max(widest, bold.horizontalAdvance(row[c].text));
        out.columns.push_back(widest + 2 * pad);
    }
    const double columns = std::accumulate(out.columns.begin(), out.columns.end(), 0.0);
    // The labels take what they need of the rest (wrapping where it is short); the columns
    // share what is left over, so the table spans its box.
    double longest = 0;
    for (const QString& label : labels_)
        longest = std::max(longest, plain.horizontalAdvance(label));
    out.labelWidth = std::min(longest + 2 * pad + 1, width - columns);
    const double spare = width - columns - out.labelWidth;
    if (!out.columns.empty())
        for (double& c : out.columns) c += spare / static_cast<double>(out.columns.size());
    out.headerHeight = headerLines * plain.lineSpacing() + 2 * pad;
    out.height = out.headerHeight;
    const double textWidth = out.labelWidth - 2 * pad;
    for (const QString& label : labels_) {
        const QRectF wrapped =
            plain.boundingRect(QRectF(0, 0, std::max(1.0, textWidth), 1e6), kWrap, label);
        const bool whole = textWidth > 0 && wrapped.width() <= textWidth + 0.5 &&
                           wrapped.height() <= kLabelLines * plain.lineSpacing() + 0.5;
        out.labelsWhole = out.labelsWhole && whole;
        const double text = std::min(wrapped.height(), kLabelLines * plain.lineSpacing());
        out.rows.push_back(std::max(text, bold.height()) + 2 * pad);
        out.height += out.rows.back();
    }
    return out;
}

void SlideTable::fit(double width, double height, int largest, int smallest) {
    width_ = width;
    px_ = std::max(1, smallest);
    for (int px = largest; px >= smallest; --px) {
        const Layout at = layout(width, px);
        if (at.labelsWhole && at.height <= height) {
            px_ = px;
            break;
        }
    }
    layout_ = layout(width, px_);
    height_ = layout_.height;
}

bool SlideTable::labelsWhole() const {
    return layout_.labelsWhole;
}

void SlideTable::draw(QPainter& p, const QRectF& into, const QColor& text,
                      const QColor& grid) const {
    const QFont plain = slideFont(px_, false), bold = slideFont(px_, true);
    const double pad = padding(px_);
    p.save();
    p.setClipRect(into);
    p.translate(into.topLeft());
    p.setPen(text);
    // The header row: each column's lines centred over it.
    p.setFont(plain);
    double x = layout_.labelWidth;
    for (int c = 0; c < headers_.size(); ++c) {
        const double w = layout_.columns[static_cast<std::size_t>(c)];
        p.drawText(QRectF(x, pad, w, layout_.headerHeight - 2 * pad), Qt::AlignCenter, headers_[c]);
        x += w;
    }
    double y = layout_.headerHeight;
    for (int r = 0; r < labels_.size(); ++r) {
        const double h = layout_.rows[static_cast<std::size_t>(r)];
        p.setPen(grid);
        p.drawLine(QPointF(0, y), QPointF(width_, y));
        p.setPen(text);
        p.setFont(plain);
        const QRectF label(pad, y + pad, layout_.labelWidth - 2 * pad, h - 2 * pad);
        p.save();
        p.setClipRect(label, Qt::IntersectClip);  // a third line would run into the next row
        p.drawText(label, Qt::AlignLeft | Qt::AlignVCenter | kWrap, labels_[r]);
        p.restore();
        x = layout_.labelWidth;
        p.setFont(bold);
        const auto& row = cells_[static_cast<std::size_t>(r)];
        for (std::size_t c = 0; c < row.size(); ++c) {
            const QRectF cell(x, y, layout_.columns[c], h);
            if (row[c].fill.isValid()) p.fillRect(cell.adjusted(1, 1, -1, -1), row[c].fill);
            p.drawText(cell, Qt::AlignCenter, row[c].text);
            x += layout_.columns[c];
        }
        y += h;
    }
    p.setPen(grid);
    p.drawLine(QPointF(0, y), QPointF(width_, y));
    p.restore();
}

}  // namespace lockscope::ui
