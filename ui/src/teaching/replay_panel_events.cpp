// ReplayPanel's events: the keys that step the story (← → Space Home End), focus when the
// tab appears, the panes fitted on a resize, the legend and colours after a palette change.
#include <QApplication>
#include <QKeyEvent>

#include "replay_panel.h"

namespace lockscope::ui {

void ReplayPanel::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
        case Qt::Key_Right:
            stepForward();
            break;
        case Qt::Key_Left:
            stepBack();
            break;
        case Qt::Key_Space:
            togglePlay();
            break;
        case Qt::Key_Home:
            restart();
            break;
        case Qt::Key_End:
            seek(static_cast<int>(replay_->beats().size()) - 1);
            break;
        default:
            QWidget::keyPressEvent(event);
            return;
    }
    event->accept();
}

void ReplayPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    // The keys step the story from the moment the tab appears.
    QWidget* focused = QApplication::focusWidget();
    if (!focused || !isAncestorOf(focused)) setFocus();
}

void ReplayPanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fitPanes();
}

void ReplayPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && replay_) {
        updateLegend();
        showBeat();
    }
}

}  // namespace lockscope::ui
