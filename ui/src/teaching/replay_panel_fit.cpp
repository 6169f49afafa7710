// ReplayPanel's side of the zoom and presenter mode (PresenterMode switches them): every
// lane, title, legend, narration and table font at the zoom, and the panes fitted to a
// short screen (1280×720) so the narration and the table show whole.
#include <QCheckBox>
#include <QHeaderView>
#include <QLayout>
#include <QScreen>
#include <QSplitter>
#include <algorithm>

#include "elided_label.h"
#include "lane_fonts.h"
#include "narration_view.h"
#include "outcome_comparison.h"
#include "presenter_mode.h"
#include "replay_panel.h"
#include "replay_pttl_plot.h"
#include "replay_transport.h"
#include "timeline_lanes.h"

namespace lockscope::ui {

namespace {
// The panel's least height for the PTTL plot at zoom 1 (800 px in presenter mode): a 720p
// screen has less, in presenter mode and in the normal window under its menu and tabs.
constexpr int kRoomForThePttlPlot = 640;
}  // namespace

void ReplayPanel::setPresenterMode(bool on) {
    presenter_->setOn(on);
}

bool ReplayPanel::presenterMode() const {
    return presenter_ && presenter_->on();
}

double ReplayPanel::zoom() const {
    return presenter_->zoom();
}

void ReplayPanel::zoomIn() {
    presenter_->zoomIn();
}

void ReplayPanel::zoomOut() {
    presenter_->zoomOut();
}

void ReplayPanel::resetZoom() {
    presenter_->resetZoom();
}

void ReplayPanel::applyZoom() {
    applyZoomedFonts();
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
    fitPanes();
}

void ReplayPanel::applyZoomedFonts() {
    // The title, the line under it and the legend (on slides too) grow with the lanes.
    title_->setFont(LaneFonts::sized(20, true));
    nowLine_->setFont(LaneFonts::sized(16, false));
    legend_->setFont(LaneFonts::sized(13, false));
    // The controls: PresenterMode scales them (capped, the top row must fit 1280 px).
}

void ReplayPanel::fitPanes() {
    // A projector's 720 lines cannot hold the lanes, a PTTL plot squeezed to a few pixels
    // and the whole table: there presenter mode drops the plot (the key lane still shows
    // whether the key lives), and the table gets its rows.
    const bool plot = roomForThePttlPlot();
    pttl_->setVisible(plot);
    // The window may have grown past its screen for the plot before it was hidden: give
    // the height back, as the window's own rule does at start (never taller than the screen).
    QWidget* top = window();
    if (!plot && top != this && !top->isFullScreen() && top->screen() &&
        top->height() > top->screen()->availableGeometry().height()) {
        if (top->layout()) top->layout()->activate();  // its least height without the plot
        top->resize(top->width(), top->screen()->availableGeometry().height());
    }
    // The columns (this run included, once a beat is shown) at their header's width.
    const QSize table = comparison_->neededSize();
    if (presenterMode()) {
        const int across = bottom_->width() - bottom_->handleWidth();
        if (across <= 0) return;  // not laid out yet
        // A few pixels of slack: a column one pixel short scrolls the whole table sideways.
        // The narration keeps two thirds while the table has its one column (a long label
        // elided, whole in its tooltip), 40 % once the totals show: their labels are what
        // the ending is read by.
        const int share = totalsShown() ? across * 6 / 10 : across / 3;
        const int wide =
            std::min(table.width() + 4, std::max(share, comparison_->leastWidth() + 2));
        bottom_->setSizes({across - wide, wide});
    } else if (const QList<int> beside = bottom_->sizes(); beside.size() == 2 && beside[1] > 0) {
        // The normal window keeps the split the user chose, but never so narrow that the
        // table scrolls sideways: its columns whole, its labels a few letters (at most
        // 60 % of the width, the narration keeps the rest).
        const int across = beside[0] + beside[1];
        const int least = std::min(comparison_->leastWidth() + 2, across * 6 / 10);
        if (beside[1] < least) bottom_->setSizes({across - least, least});
    }
    const QList<int> down = vertical_->sizes();
    if (down.size() != 2) return;
    const int total = down[0] + down[1];
    if (total <= 0) return;
    const int room = total - timeline_->minimumSizeHint().height();
    if (presenterMode()) {
        // In front of a room every beat's command, reply and narration show whole, without
        // scrolling: the box is as tall as the story's longest beat needs, at the largest
        // type that fits what the lanes leave; the table's rows show too.
        // At most half the height: the lanes are the story.
        const int most = std::min(room, total / 2);
        const int text = narration_->fitStory(*replay_, predict_->isChecked(),
                                              narration_->contentsRect().width(), most);
        const int pane = std::min(std::max(text, table.height()), std::max(most, 0));
        if (pane > 0) vertical_->setSizes({total - pane, pane});
        return;
    }
    // The box's pinned strip is what stops playback or ends the story: it never waits for
    // a drag. At most half the height (the lanes are the story), and never below the
    // timeline's least height (the splitter keeps every lane whole); past that the strip
    // sets its type smaller.
    const int need = std::max(narration_->neededHeight(), presenterMode() ? table.height() : 0);
    if (need <= down[1]) return;  // a pane the user made larger stays so
    const int pane = std::min({need, total / 2, std::max(down[1], room)});
    vertical_->setSizes({total - pane, pane});
}

bool ReplayPanel::roomForThePttlPlot() const {
    if (height() < LaneFonts::px(kRoomForThePttlPlot)) return false;
    const QScreen* screen = this->screen();
    if (!screen) return true;
    // A story just loaded has changed the lanes' least height; the layouts above cache the
    // old one until their next pass, and the decision must not wait for it (the window
    // would grow past the screen first).
    for (QWidget* w = pttl_; w; w = w->parentWidget()) {
        w->updateGeometry();  // the size its parent's layout item remembers
        if (QLayout* layout = w->layout()) layout->invalidate();
    }
    // The window's least height with the plot (its own least height and the layout's gap
    // added when it is hidden now) must fit the screen the window is on.
    const int plot =
        pttl_->isVisibleTo(timeline_) ? 0 : pttl_->minimumHeight() + timeline_->layout()->spacing();
    return window()->minimumSizeHint().height() + plot <= screen->availableGeometry().height();
}

}  // namespace lockscope::ui
