#include "widgets/lock_table_delegate.h"

#include <QApplication>
#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include "models/finding_text.h"
#include "models/lock_table_model.h"

namespace lockscope::ui {

QColor LockTableDelegate::ttlColor(double fraction) {
    if (fraction > 0.5) return {0x43, 0xa0, 0x47};
    if (fraction > 0.2) return {0xf5, 0x9e, 0x0b};
    return {0xe5, 0x39, 0x35};
}

void LockTableDelegate::initStyleOption(QStyleOptionViewItem* option,
                                        const QModelIndex& index) const {
    QStyledItemDelegate::initStyleOption(option, index);
    // A kind starts with its library ("activejob-uniq…", "redisson-rwlock-t…"): keep that
    // start when the column is narrow; keys keep the view's middle elision.
    if (index.column() == LockTableModel::Kind || index.column() == LockTableModel::Holder)
        option->textElideMode = Qt::ElideRight;
}

void LockTableDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                              const QModelIndex& index) const {
    double highlight = index.data(LockTableModel::HighlightRole).toDouble();
    if (highlight > 0 && !(option.state & QStyle::State_Selected)) {
        QColor glow(0xff, 0xd5, 0x4f);
        glow.setAlphaF(float(0.55 * highlight));
        painter->fillRect(option.rect, glow);
    }
    switch (index.column()) {
        case LockTableModel::Remaining:
            paintTtl(painter, option, index);
            return;
        case LockTableModel::Findings: {
            QStyleOptionViewItem base(option);
            initStyleOption(&base, index);
            base.text.clear();
            option.widget->style()->drawControl(QStyle::CE_ItemViewItem, &base, painter,
                                                option.widget);
            const bool stale = index.data(LockTableModel::StaleRole).toBool();
            paintBadges(painter, option, index.data(LockTableModel::FindingsRole).toStringList(),
                        [stale](const QString& id) {
                            return stale ? QColor(Qt::gray) : severityColor(findingSeverity(id));
                        });
            return;
        }
        default:
            QStyledItemDelegate::paint(painter, option, index);
    }
}

void LockTableDelegate::paintTtl(QPainter* painter, const QStyleOptionViewItem& option,
                                 const QModelIndex& index) const {
    QStyleOptionViewItem base(option);
    initStyleOption(&base, index);
    base.text.clear();
    option.widget->style()->drawControl(QStyle::CE_ItemViewItem, &base, painter, option.widget);

    if (index.data(LockTableModel::StaleRole).toBool()) {
        // The connection is down: no countdown bar pretending to know, just when it was seen.
        painter->save();
        painter->setPen(option.palette.color(QPalette::Disabled, QPalette::Text));
        const QRect area = option.rect.adjusted(10, 0, -4, 0);
        const QFontMetrics metrics(option.font);
        QString text = index.data(Qt::DisplayRole).toString();
        // "last seen 4 min 10 s ago" in a narrow column: "seen 4 min 10 s ago", then elided
        // in the middle, never cut off at the edge.
        if (metrics.horizontalAdvance(text) > area.width() && text.indexOf(' ') > 0)
            text = text.mid(text.indexOf(' ') + 1);
        text = metrics.elidedText(text, Qt::ElideMiddle, area.width());
        painter->drawText(area, Qt::AlignVCenter | Qt::AlignLeft, text);
        painter->restore();
        return;
    }
    qint64 remaining = index.data(LockTableModel::RemainingMsRole).toLongLong();
    if (remaining < 0) {
        paintBadges(painter, option, {tr("⚠ no TTL")},
                    [](const QString&) { return severityColor(inspect::Severity::Critical); });
        return;
    }
    double fraction = index.data(LockTableModel::TtlFractionRole).toDouble();
    QRect track = option.rect.adjusted(4, 4, -4, -4);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QColor trackColor = option.palette.color(QPalette::Mid);
    trackColor.setAlpha(60);
    painter->setPen(Qt::NoPen);
    painter->setBrush(trackColor);
    painter->drawRoundedRect(track, 3, 3);
    QRect fill = track;
    fill.setWidth(int(track.width() * fraction));
    QColor color = ttlColor(fraction);
    color.setAlpha(170);
    painter->setBrush(color);
    if (fill.width() > 0) painter->drawRoundedRect(fill, 3, 3);
    painter->setPen(option.state & QStyle::State_Selected
                        ? option.palette.color(QPalette::HighlightedText)
                        : option.palette.color(QPalette::Text));
    painter->drawText(track.adjusted(6, 0, -6, 0), Qt::AlignVCenter | Qt::AlignLeft,
                      index.data(Qt::DisplayRole).toString());
    painter->restore();
}

void LockTableDelegate::paintBadges(QPainter* painter, const QStyleOptionViewItem& option,
                                    const QStringList& badges,
                                    const std::function<QColor(const QString&)>& colorOf) const {
    const bool selected = option.state & QStyle::State_Selected;
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    QFont font = option.font;
    font.setPointSizeF(font.pointSizeF() * 0.85);
    font.setBold(true);
    painter->setFont(font);
    QFontMetrics fm(font);
    int x = option.rect.left() + 4;
    int h = std::min(option.rect.height() - 6, fm.height() + 4);
    int y = option.rect.center().y() - h / 2;
    for (const QString& badge : badges) {
        int w = fm.horizontalAdvance(badge) + 12;
        if (x + w > option.rect.right()) break;
        QRect pill(x, y, w, h);
        const QColor color = colorOf(badge);
        // On a selected row the highlight would swallow a translucent pill: fill it solid
        // and write white on it, so the badge stays readable.
        QColor fill = color;
        fill.setAlpha(selected ? 255 : 40);
        painter->setPen(color);
        painter->setBrush(fill);
        painter->drawRoundedRect(pill, h / 2.0, h / 2.0);
        painter->setPen(selected ? QColor(Qt::white) : color);
        painter->drawText(pill, Qt::AlignCenter, badge);
        x += w + 4;
    }
    painter->restore();
}

QSize LockTableDelegate::sizeHint(const QStyleOptionViewItem& option,
                                  const QModelIndex& index) const {
    QSize size = QStyledItemDelegate::sizeHint(option, index);
    if (index.column() == LockTableModel::Remaining) size.setWidth(std::max(size.width(), 130));
    if (index.column() == LockTableModel::Findings) {
        QFontMetrics fm(option.font);
        int w = 8;
        for (const QString& b : index.data(LockTableModel::FindingsRole).toStringList())
            w += fm.horizontalAdvance(b) + 16;
        size.setWidth(std::max(size.width(), w));
    }
    size.setHeight(std::max(size.height(), QFontMetrics(option.font).height() + 10));
    return size;
}

}  // namespace lockscope::ui
