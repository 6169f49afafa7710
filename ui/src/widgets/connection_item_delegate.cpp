#include "widgets/connection_item_delegate.h"

#include <QApplication>
#include <QPainter>
#include <array>

namespace lockscope::ui {
namespace {

constexpr int kMargin = 4;
constexpr int kIconSide = 14;
constexpr int kColumnGap = 6;
constexpr int kColumns = 4;  // address, role, slots, state

int lineHeight(const QFontMetrics& metrics) {
    return metrics.height() + 2;
}

// The tree's branch ("├─") before each node's columns. The tree starts under the state dot,
// not under the name: the node rows need the width for their columns.
int branchWidth(const QFontMetrics& metrics) {
    return metrics.horizontalAdvance(QStringLiteral("└─")) + 2;
}
int branchLeft(const QRect& area) {
    return area.left() + kIconSide / 2 - 2;
}

// The widest text of each column over the node lines.
std::array<int, kColumns> fullWidths(const QList<QStringList>& nodes, const QFontMetrics& metrics) {
    std::array<int, kColumns> widths{};
    for (const QStringList& columns : nodes)
        for (int c = 0; c < kColumns && c < columns.size(); ++c)
            if (!columns[c].isEmpty())  // + 1: elidedText cuts a text its rounded width fits
                widths[std::size_t(c)] =
                    std::max(widths[std::size_t(c)], metrics.horizontalAdvance(columns[c]) + 1);
    return widths;
}

int totalWidth(const std::array<int, kColumns>& widths) {
    int total = 0;
    for (int w : widths)
        if (w > 0) total += w + kColumnGap;
    return std::max(0, total - kColumnGap);
}

// The column widths in `available` px: the address gives way first (down to about a port),
// then the slots, then the role. The state never does: it is what the operator looks for.
std::array<int, kColumns> columnWidths(const QList<QStringList>& nodes, const QFontMetrics& metrics,
                                       int available) {
    std::array<int, kColumns> widths = fullWidths(nodes, metrics);
    const std::array<int, kColumns> least{
        std::min(widths[0], metrics.horizontalAdvance(QStringLiteral("…:0000"))),
        std::min(widths[1], metrics.horizontalAdvance(QStringLiteral("pr…"))),
        std::min(widths[2], metrics.horizontalAdvance(QStringLiteral("0…00"))), widths[3]};
    int excess = totalWidth(widths) - available;
    for (int c : {0, 2, 1}) {
        const auto i = std::size_t(c);
        const int give = std::clamp(excess, 0, widths[i] - least[i]);
        widths[i] -= give;
        excess -= give;
    }
    return widths;
}

// Nodes on one port, a host each: the hosts without their port and without the labels every
// one shares ("10.20.30.101", "10.20.30.102" -> "…101", "…102"; "a.db.prod", "b.db.prod" ->
// "a…", "b…"), so what tells them apart fits a narrow sidebar.
void shortenHosts(QList<QStringList>& nodes) {
    QList<QStringList> labels;
    for (const QStringList& n : nodes) labels << n[0].section(':', 0, -2).split(QLatin1Char('.'));
    qsizetype shortest = labels.front().size();
    for (const QStringList& l : labels) shortest = std::min(shortest, l.size());
    auto shared = [&](auto labelAt) {
        qsizetype k = 0;
        for (; k + 1 < shortest; ++k)
            for (const QStringList& l : labels)
                if (labelAt(l, k) != labelAt(labels.front(), k)) return k;
        return k;
    };
    const qsizetype front = shared([](const QStringList& l, qsizetype k) { return l[k]; });
    const qsizetype back =
        std::min(shortest - 1 - front,
                 shared([](const QStringList& l, qsizetype k) { return l[l.size() - 1 - k]; }));
    for (qsizetype i = 0; i < nodes.size(); ++i) {
        const QStringList& l = labels[i];
        nodes[i][0] = (front > 0 ? QStringLiteral("…") : QString()) +
                      l.mid(front, l.size() - front - back).join(QLatin1Char('.')) +
                      (back > 0 ? QStringLiteral("…") : QString());
    }
}

}  // namespace

QList<QList<ConnectionItemDelegate::Cell>> ConnectionItemDelegate::nodeCells(
    const QStyleOptionViewItem& option, const QString& text) {
    const QList<QStringList> nodes = nodeRows(text);
    const QFontMetrics metrics(option.font);
    const QRect area = option.rect.adjusted(kMargin, kMargin, -kMargin, -kMargin);
    const int columnsLeft = branchLeft(area) + branchWidth(metrics);
    const auto widths = columnWidths(nodes, metrics, area.right() - columnsLeft);
    QList<QList<Cell>> rows;
    for (const QStringList& columns : nodes) {
        QList<Cell> cells;
        int x = columnsLeft;
        for (int c = 0; c < kColumns; ++c) {
            const int w = widths[std::size_t(c)];
            cells.push_back({x, w, metrics.elidedText(columns[c], Qt::ElideMiddle, w)});
            if (w > 0) x += w + kColumnGap;
        }
        rows.push_back(cells);
    }
    return rows;
}

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
    // port says which node; the host is in the connection's line above. One port for every
    // node (a node per machine): the host says which.
    bool oneHost = !nodes.isEmpty(), onePort = !nodes.isEmpty();
    const QString host = nodes.isEmpty() ? QString() : nodes.front()[0].section(':', 0, -2);
    const QString port = nodes.isEmpty() ? QString() : nodes.front()[0].section(':', -1);
    for (const QStringList& n : nodes) {
        oneHost = oneHost && n[0].section(':', 0, -2) == host;
        onePort = onePort && n[0].section(':', -1) == port;
    }
    if (!oneHost && onePort && nodes.size() > 1) shortenHosts(nodes);
    bool allOnline = true;
    for (const QStringList& n : nodes) allOnline = allOnline && n[3] == QLatin1String("online");
    // What every node shares is said once, not on each line: the sidebar is about 210 px wide.
    for (QStringList& n : nodes) {
        if (oneHost) n[0] = QLatin1Char(':') + n[0].section(':', -1);
        // A primary's slots say it is one; a replica says so where a primary's slots are.
        if (n[2].isEmpty()) n[2] = n[1];
        n[1].clear();
        if (allOnline) n[3].clear();  // the connection's state says so
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
        const QFontMetrics lineMetrics(font);
        painter->drawText(row, Qt::AlignLeft | Qt::AlignVCenter,
                          lineMetrics.elidedText(lines[i], Qt::ElideRight, row.width()));
    }

    // The cluster's nodes: a tree, one line each, the columns aligned across the lines.
    const QString all = index.data(Qt::DisplayRole).toString();
    const QList<QStringList> nodes = nodeRows(all);
    const auto rows = nodeCells(option, all);
    painter->setFont(option.font);
    for (int n = 0; n < int(rows.size()); ++n) {
        const int top = area.top() + (2 + n) * height;
        painter->setPen(dim);
        painter->drawText(QRect(branchLeft(area), top, branchWidth(metrics), height),
                          Qt::AlignLeft | Qt::AlignVCenter,
                          n + 1 < int(rows.size()) ? QStringLiteral("├─") : QStringLiteral("└─"));
        for (int c = 0; c < kColumns; ++c) {
            const Cell& cell = rows[n][c];
            // Health other than online is what the operator looks for: in the text colour.
            const bool loud = c == 3 && nodes[n][c] != QLatin1String("online");
            painter->setPen(c == 0 || loud ? text : dim);
            painter->drawText(QRect(cell.x, top, cell.width, height),
                              Qt::AlignLeft | Qt::AlignVCenter, cell.text);
        }
    }
    painter->restore();
}

}  // namespace lockscope::ui
