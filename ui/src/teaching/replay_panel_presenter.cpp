// ReplayPanel for a projector: presenter mode (no sidebar, the fonts scaled up) and the
// teaching view's zoom (Ctrl+= / Ctrl+- / Ctrl+0), which scales every lane, narration and
// table font together.
#include <QShortcut>
#include <QSplitter>
#include <QToolButton>
#include <algorithm>

#include "lane_fonts.h"
#include "narration_view.h"
#include "outcome_comparison.h"
#include "replay_panel.h"
#include "replay_pttl_plot.h"
#include "timeline_lanes.h"

namespace lockscope::ui {

namespace {
constexpr double kMinZoom = 0.6, kMaxZoom = 2.5, kZoomStep = 1.15;
constexpr double kPresenterZoom = 1.25;  // a projector's back row
}  // namespace

void ReplayPanel::installZoomShortcuts() {
    auto bind = [this](const QKeySequence& keys, void (ReplayPanel::*slot)()) {
        auto* shortcut = new QShortcut(keys, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, slot);
    };
    bind(QKeySequence(Qt::CTRL | Qt::Key_Equal), &ReplayPanel::zoomIn);
    bind(QKeySequence(Qt::CTRL | Qt::Key_Plus), &ReplayPanel::zoomIn);
    bind(QKeySequence(Qt::CTRL | Qt::Key_Minus), &ReplayPanel::zoomOut);
    bind(QKeySequence(Qt::CTRL | Qt::Key_0), &ReplayPanel::resetZoom);
}

double ReplayPanel::zoom() const {
    return LaneFonts::zoom();
}

void ReplayPanel::zoomIn() {
    setZoom(zoom() * kZoomStep);
}

void ReplayPanel::zoomOut() {
    setZoom(zoom() / kZoomStep);
}

void ReplayPanel::resetZoom() {
    setZoom(presenter_ ? kPresenterZoom : 1.0);
}

void ReplayPanel::setZoom(double factor) {
    LaneFonts::zoom() = std::clamp(factor, kMinZoom, kMaxZoom);
    narration_->applyZoom();
    QFont tableFont = comparison_->font();
    tableFont.setPixelSize(LaneFonts::px(15));
    comparison_->setFont(tableFont);
    lanes_->updateGeometry();
    showStory();
}

void ReplayPanel::setPresenterMode(bool on) {
    presenterButton_->setChecked(on);
    if (on == presenter_) return;
    presenter_ = on;
    sidebar_->setVisible(!on);
    if (on) {
        zoomBeforePresenter_ = zoom();
        setZoom(std::max(zoom(), kPresenterZoom));
    } else {
        setZoom(zoomBeforePresenter_);
    }
    setFocus();
}

}  // namespace lockscope::ui
