#include "eliding_status_bar.h"

#include <QPainter>
#include <QStyleOption>

namespace lockscope::ui {

ElidingStatusBar::ElidingStatusBar(QWidget* parent) : QStatusBar(parent) {
    // The whole message stays one hover away when it had to be shortened.
    connect(this, &QStatusBar::messageChanged, this,
            [this](const QString& message) { setToolTip(message); });
}

QRect ElidingStatusBar::messageRect() const {
    // QStatusBar draws its message from 6 px to 2 px before the first permanent widget (the
    // widgets added here are all permanent: the load indicator).
    int right = width() - 12;
    for (const QWidget* child : findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        if (child->isVisible() && child->x() > 0) right = std::min(right, child->x() - 2);
    return {6, 0, std::max(0, right - 6), height()};
}

QString ElidingStatusBar::shownMessage() const {
    return fontMetrics().elidedText(currentMessage(), Qt::ElideRight, messageRect().width());
}

void ElidingStatusBar::paintEvent(QPaintEvent* event) {
    if (currentMessage().isEmpty()) {
        QStatusBar::paintEvent(event);
        return;
    }
    // Qt's own paintEvent draws the message unelided; draw the panel and the message here.
    QPainter painter(this);
    QStyleOption option;
    option.initFrom(this);
    style()->drawPrimitive(QStyle::PE_PanelStatusBar, &option, &painter, this);
    painter.setPen(palette().windowText().color());
    painter.drawText(messageRect(), Qt::AlignLeading | Qt::AlignVCenter | Qt::TextSingleLine,
                     shownMessage());
}

}  // namespace lockscope::ui
