// LockInspectorView, rows that hold still: no row moves under the pointer, from a press to
// its release and for a second after.
#include <QEvent>
#include <QTableView>

#include "models/lock_table_model.h"
#include "widgets/lock_inspector_view.h"

namespace lockscope::ui {

bool LockInspectorView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == tableViewport_) {
        switch (event->type()) {
            case QEvent::Enter:
            case QEvent::HoverEnter:
                pointerOverTable_ = true;
                updateOrderHold();
                break;
            case QEvent::Leave:
            case QEvent::HoverLeave:
                pointerOverTable_ = false;
                updateOrderHold();
                break;
            case QEvent::MouseButtonPress:
            case QEvent::MouseButtonDblClick:
                buttonDown_ = true;
                lastPress_.start();
                updateOrderHold();
                break;
            case QEvent::MouseButtonRelease:
                buttonDown_ = false;
                lastPress_.start();  // the second after the click holds too
                updateOrderHold();
                break;
            default:
                break;
        }
    }
    return QWidget::eventFilter(watched, event);
}

void LockInspectorView::updateOrderHold() {
    constexpr int kHoldAfterPressMs = 1000;
    const int sincePress = lastPress_.isValid() ? int(lastPress_.elapsed()) : kHoldAfterPressMs;
    // From the press to the release nothing moves, however long the button is held (a press
    // with no hover, as from a touch screen or a test, too).
    const bool hold = pointerOverTable_ || buttonDown_ || sincePress < kHoldAfterPressMs;
    model_->setOrderHeld(hold);
    if (hold && !pointerOverTable_ && !buttonDown_)
        holdRelease_.start(std::max(0, kHoldAfterPressMs - sincePress));
}

}  // namespace lockscope::ui
