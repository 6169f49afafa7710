#include "presenter_mode.h"

#include <QBoxLayout>
#include <QKeySequence>
#include <QShortcut>
#include <QToolButton>
#include <QWidget>
#include <algorithm>

#include "lane_fonts.h"
#include "narration_view.h"
#include "replay_top_row.h"
#include "replay_transport.h"

namespace lockscope::ui {

namespace {
// The controls' type and icons in presenter mode at zoom 1 (20 px and 30 px at the presenter
// zoom), never past the cap: larger, the top row is wider than a 1280-px projector.
constexpr int kControlPx = 16, kControlMostPx = 20;
constexpr int kRowIconPx = 24, kRowIconMostPx = 30;
constexpr int kTransportIconPx = 32, kTransportIconMostPx = 40;
constexpr int kPositionPx = 18, kPositionMostPx = 22;

int capped(int pixels, int most) {
    return std::min(LaneFonts::px(pixels), most);
}
}  // namespace

PresenterMode::PresenterMode(Parts parts, QObject* parent) : QObject(parent), parts_(parts) {
    installShortcuts();
}

void PresenterMode::installShortcuts() {
    auto bind = [this](const QKeySequence& keys, void (PresenterMode::*slot)()) {
        auto* shortcut = new QShortcut(keys, parts_.panel);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, slot);
    };
    bind(QKeySequence(Qt::CTRL | Qt::Key_Equal), &PresenterMode::zoomIn);
    bind(QKeySequence(Qt::CTRL | Qt::Key_Plus), &PresenterMode::zoomIn);
    bind(QKeySequence(Qt::CTRL | Qt::Key_Minus), &PresenterMode::zoomOut);
    bind(QKeySequence(Qt::CTRL | Qt::Key_0), &PresenterMode::resetZoom);
}

double PresenterMode::zoom() const {
    return LaneFonts::zoom();
}

void PresenterMode::zoomIn() {
    setZoom(zoom() * kZoomStep);
}

void PresenterMode::zoomOut() {
    setZoom(zoom() / kZoomStep);
}

void PresenterMode::resetZoom() {
    setZoom(on_ ? kPresenterZoom : 1.0);
}

void PresenterMode::setZoom(double factor) {
    LaneFonts::zoom() = std::clamp(factor, kMinZoom, kMaxZoom);
    scaleControls();
    emit zoomChanged();
}

void PresenterMode::scaleControls() {
    parts_.topRow->setPresenting(on_, capped(kControlPx, kControlMostPx),
                                 capped(kRowIconPx, kRowIconMostPx));
    if (on_)
        parts_.transport->setScale(capped(kTransportIconPx, kTransportIconMostPx),
                                   capped(kPositionPx, kPositionMostPx));
    else
        parts_.transport->setScale(ReplayTransport::kIconPx, ReplayTransport::kPositionPx);
}

void PresenterMode::setOn(bool on) {
    parts_.topRow->presenterButton()->setChecked(on);
    if (on == on_) return;
    on_ = on;
    parts_.sidebar->setVisible(!on);
    // The line under the title repeats the transport, the "now" flag and the command in the
    // narration box: in front of a room its height goes to the beat's text.
    parts_.nowLine->setVisible(!on);
    parts_.narration->setPresenting(on);
    // One row of controls in front of a room: the transport joins the top row.
    parts_.transport->setCompact(on);
    if (on)
        parts_.topRow->holdTransport(parts_.transport);
    else
        parts_.panelLayout->insertWidget(1, parts_.transport);
    if (on) {
        zoomBefore_ = zoom();
        setZoom(std::max(zoom(), kPresenterZoom));
    } else {
        setZoom(zoomBefore_);
    }
    parts_.panel->setFocus();
}

}  // namespace lockscope::ui
