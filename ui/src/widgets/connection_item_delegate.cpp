#include "widgets/connection_item_delegate.h"

#include <QApplication>
#include <QPainter>
#include <array>

namespace lockscope::ui {
namespace {

constexpr int kMargin = 4;
constexpr int kIconSide = 14;
constexpr int kColumnGap = 8;
constexpr int kColumns = 4;  // address, role, slots, state

int lineHeight(const QFontMetrics& metrics) {
    return metrics.height() + 2;
}

// The widest text of each column over the node lines, the address column given what is left.
std::array<int, kColumns> columnWidths(const QList<QStringList>& nodes, const QFontMetrics& metrics,
                                       int available) {
    std::array<int, kColumns> widths{};
    for (const QStringList& columns : nodes)
        for (int c = 0; c < kColumns && c < columns.size(); ++c)
            widths[std::size_t(c)] =
                std::max(widths[std::size_t(c)], metrics.horizontalAdvance(columns[c]));
    int others = 0;
    for (int c = 1; c < kColumns; ++c) others += widths[std::size_t(c)] + kColumnGap;
    // A narrow sidebar shortens the addresses (elided in the middle), never the state.
    widths[0] = std::max(metrics.horizontalAdvance(QStringLiteral("…:0000")),
                         std::min(widths[0], available - others - kColumnGap));
    return widths;
}

}  // namespace

QStringList ConnectionItemDelegate::nodeColumns(const QString& line) {
    QStringList parts = line.trimmed().split(QStringLiteral(" · "));
    if (parts.size() >= 4) {  // a primary: address, role, "slots …", state
        parts[2].remove(QStringLiteral("slots "));
        return parts.mid(0, 3) << parts.mid(3).join(QStringLiteral(" · "));
    }
    if (parts.size() == 3) return {parts[0], parts[1], QString(), parts[2]};  // a replica
    while (parts.size() < kColumns) parts << QString();
    return parts;
}

QList<QStringList> ConnectionItemDelegate::nodeRows(const QString& text) {
    const QStringList lines = text.split(QLatin1Char('\n'));
    QList<QStringList> nodes;
    for (qsizetype i = 2; i < lines.size(); ++i) nodes << nodeColumns(lines[i]);
    // One host for every node (a cluster on one machine, or behind one address map): the
    // port says which node; the host is in the connection's line above.
    bool oneHost = !nodes.isEmpty();
    const QString host = nodes.isEmpty() ? QString() : nodes.front()[0].section(':', 0, -2);
    for (const QStringList& n : nodes) oneHost = oneHost && n[0].section(':', 0, -2) == host;
    bool allOnline = true, allPrimaries = true;
    for (const QStringList& n : nodes) {
        allOnline = allOnline && n[3] == QLatin1String("online");
        allPrimaries = allPrimaries && n[1] == QLatin1String("primary");
    }
    // What every node shares is said once, not on each line: the sidebar is 240 px wide.
    for (QStringList& n : nodes) {
        if (oneHost) n[0] = QLatin1Char(':') + n[0].section(':', -1);
        if (allPrimaries) n[1].clear();  // no replicas: the role tells nothing
        if (allOnline) n[3].clear();     // the connection's state says so
    }
    return nodes;
}

void ConnectionItemDelegate::paintGroupHeader(QPainter* painter, const QStyleOptionViewItem& option,
                                              const QModelIndex& index) const {
    // The group's name bold, its figures under it, dimmer.
    painter->save();
    const QStringList lines = index.data(Qt::DisplayRole).toString().split(QLatin1Char('\n'));
    const QRect area = option.rect.adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const int height = lineHeight(QFontMetrics(option.font));
    for (int i = 0; i < std::min<qsizetype>(2, lines.size()); ++i) {
        QFont font = option.font;
        font.setBold(i == 0);
        painter->setFont(font);
        painter->setPen(option.palette.color(i == 0 ? QPalette::Text : QPalette::PlaceholderText));
        const QRect row(area.left(), area.top() + i * height, area.width(), height);
        painter->drawText(row, Qt::AlignLeft | Qt::AlignVCenter,
                          QFontMetrics(font).elidedText(lines[i], Qt::ElideRight, row.width()));
    }
    painter->restore();
}

QSize ConnectionItemDelegate::sizeHint(const QStyleOptionViewItem& option,
                                       const QModelIndex& index) const {
    const QFontMetrics metrics(option.font);
    if (index.data(GroupHeaderRole).isValid())
        return {option.rect.width(), 2 * lineHeight(metrics) + 2 * kMargin};
    const int lines = int(index.data(Qt::DisplayRole).toString().count(QLatin1Char('\n'))) + 1;
    return {option.rect.width(), lines * lineHeight(metrics) + 2 * kMargin};
}

void ConnectionItemDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                                   const QModelIndex& index) const {
    QStyleOptionViewItem panel = option;
    initStyleOption(&panel, index);
    panel.text.clear();
    panel.icon = QIcon();
    const QWidget* widget = option.widget;
    QStyle* style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &panel, painter, widget);

    if (index.data(GroupHeaderRole).isValid()) return paintGroupHeader(painter, option, index);
    const QStringList lines = index.data(Qt::DisplayRole).toString().split(QLatin1Char('\n'));
    const bool selected = option.state & QStyle::State_Selected;
    const QPalette::ColorGroup group =
        option.state & QStyle::State_Active ? QPalette::Active : QPalette::Inactive;
    const QColor text =
        option.palette.color(group, selected ? QPalette::HighlightedText : QPalette::Text);
    const QColor dim = selected ? text : option.palette.color(group, QPalette::PlaceholderText);
    const QFontMetrics metrics(option.font);
    const int height = lineHeight(metrics);
    const QRect area = option.rect.adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const int textLeft = area.left() + kIconSide + kMargin;
    painter->save();

    const auto icon = index.data(Qt::DecorationRole).value<QIcon>();
    const int iconTop = area.top() + (height - kIconSide) / 2;
    icon.paint(painter, QRect(area.left(), iconTop, kIconSide, kIconSide));
    // The connection's name (bold), then its address and state.
    for (int i = 0; i < std::min<qsizetype>(2, lines.size()); ++i) {
        QFont font = option.font;
        font.setBold(i == 0);
        painter->setFont(font);
        painter->setPen(i == 0 ? text : dim);
        const QRect row(textLeft, area.top() + i * height, area.right() - textLeft, height);
        painter->drawText(row, Qt::AlignLeft | Qt::AlignVCenter,
                          QFontMetrics(font).elidedText(lines[i], Qt::ElideRight, row.width()));
    }

    // The cluster's nodes: a tree, one line each, the columns aligned across the lines.
    const QList<QStringList> nodes = nodeRows(index.data(Qt::DisplayRole).toString());
    if (!nodes.isEmpty()) {
        painter->setFont(option.font);
        const int branch = metrics.horizontalAdvance(QStringLiteral("└─ "));
        const int columnsLeft = textLeft + branch;
        const auto widths = columnWidths(nodes, metrics, area.right() - columnsLeft);
        for (int n = 0; n < int(nodes.size()); ++n) {
            const int top = area.top() + (2 + n) * height;
            painter->setPen(dim);
            painter->drawText(
                QRect(textLeft, top, branch, height), Qt::AlignLeft | Qt::AlignVCenter,
                n + 1 < int(nodes.size()) ? QStringLiteral("├─") : QStringLiteral("└─"));
            int x = columnsLeft;
            for (int c = 0; c < kColumns; ++c) {
                const int width = widths[std::size_t(c)];
                const QString& cell = nodes[n][c];
                // Health other than online is what the operator looks for: in the text colour.
                const bool loud = c == 3 && cell != QLatin1String("online");
                painter->setPen(c == 0 || loud ? text : dim);
                const QRect box(x, top, std::min(width, area.right() - x), height);
                painter->drawText(box, Qt::AlignLeft | Qt::AlignVCenter,
                                  metrics.elidedText(cell, Qt::ElideMiddle, box.width()));
                if (width > 0) x += width + kColumnGap;
            }
        }
    }
    painter->restore();
}

}  // namespace lockscope::ui
