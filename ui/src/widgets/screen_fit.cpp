#include "widgets/screen_fit.h"

#include <QEvent>
#include <QScreen>
#include <QScrollBar>
#include <QStyle>
#include <QWidget>
#include <algorithm>

namespace lockscope::ui {

void fitHeight(QWidget* window, int maxHeight) {
    window->resize(window->width(), std::min(window->sizeHint().height(), maxHeight));
}

void fitToScreen(QWidget* window) {
    const QScreen* screen = window->screen();
    if (!screen) return;
    const QRect room = screen->availableGeometry();
    const int titleBar = window->style()->pixelMetric(QStyle::PM_TitleBarHeight);
    fitHeight(window, room.height() - titleBar);
    // A dialog that grew where it was opened (centred on its parent) would run past the
    // screen's bottom edge, its buttons out of reach: move it up.
    const int decoration = std::max(titleBar, window->frameGeometry().height() - window->height());
    const int frameHeight = window->height() + decoration;
    const QPoint at = window->frameGeometry().topLeft();
    if (at.y() + frameHeight > room.bottom() + 1)
        window->move(at.x(), std::max(room.top(), room.bottom() + 1 - frameHeight));
}

WholeContentScrollArea::WholeContentScrollArea(QWidget* parent) : QScrollArea(parent) {
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

QSize WholeContentScrollArea::sizeHint() const {
    if (!widget()) return QScrollArea::sizeHint();
    const int frame = 2 * frameWidth();
    return widget()->sizeHint() + QSize(frame, frame);
}

QSize WholeContentScrollArea::minimumSizeHint() const {
    // As wide as the content needs (nothing scrolls sideways), as short as a few lines.
    if (!widget()) return QScrollArea::minimumSizeHint();
    return {widget()->minimumSizeHint().width() + verticalScrollBar()->sizeHint().width(),
            QScrollArea::minimumSizeHint().height()};
}

bool WholeContentScrollArea::eventFilter(QObject* watched, QEvent* event) {
    const bool result = QScrollArea::eventFilter(watched, event);
    if (watched == widget() && event->type() == QEvent::LayoutRequest) {
        updateGeometry();
        emit contentHintChanged();
    }
    return result;
}

}  // namespace lockscope::ui
