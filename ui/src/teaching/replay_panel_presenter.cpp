// ReplayPanel for a projector: presenter mode (no sidebar, the fonts scaled up) and the
// teaching view's zoom (Ctrl+= / Ctrl+- / Ctrl+0), which scales every lane, narration and
// table font together.
#include <QHeaderView>
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
constexpr double kPresenterZoom = 1.25;   // a projector's back row
constexpr int kRoomForThePttlPlot = 800;  // panel height; a 720p projector has less
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
    // A row as tall as its bold number and a little air: the style's default is taller,
    // and at 720p that is the last row scrolled away.
    tableFont.setBold(true);
    comparison_->verticalHeader()->setMinimumSectionSize(QFontMetrics(tableFont).height() + 4);
    lanes_->updateGeometry();
    showStory();
    fitPresenterTable();
}

void ReplayPanel::fitPresenterTable() {
    // A projector's 720 lines cannot hold the lanes, a PTTL plot squeezed to a few pixels
    // and the whole table: there presenter mode drops the plot (the key lane still shows
    // whether the key lives), and the table gets its rows.
    pttl_->setVisible(!presenter_ || height() >= kRoomForThePttlPlot);
    if (!presenter_) return;
    // The columns (this run included, once a beat is shown) at their header's width.
    const QSize need = comparison_->neededSize();
    const int across = bottom_->width() - bottom_->handleWidth();
    if (across <= 0) return;  // not laid out yet
    // A few pixels of slack: a column one pixel short scrolls the whole table sideways.
    const int table = std::min(need.width() + 4, across * 6 / 10);  // the narration keeps 40 %
    bottom_->setSizes({across - table, table});
    const QList<int> down = vertical_->sizes();
    if (down.size() != 2) return;
    const int total = down[0] + down[1];
    if (total <= 0) return;
    // At most half the height: the lanes are the story.
    const int pane = std::min(std::max(down[1], need.height()), total / 2);
    vertical_->setSizes({total - pane, pane});
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
