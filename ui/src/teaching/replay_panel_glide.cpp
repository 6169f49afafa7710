// ReplayPanel's gliding cursor: while the story plays, the "now" cursor of the lanes and of
// the PTTL plot moves smoothly from the current beat's time toward the next beat's, at 30
// frames a second over the beat interval, instead of jumping from beat to beat. The lanes
// still show the story at the current beat; the next beat is revealed when the cursor gets
// there.
#include <algorithm>

#include "replay_panel.h"
#include "replay_pttl_plot.h"
#include "timeline_lanes.h"

namespace lockscope::ui {

void ReplayPanel::startGlide() {
    const auto& beats = replay_->beats();
    const int next = replay_->currentBeat() + 1;
    glideFrom_ = replay_->currentTime();
    glideTo_ = next < static_cast<int>(beats.size()) ? beats[next].time : glideFrom_;
    glideClock_.start();
    if (!glide_.isActive()) glide_.start();
}

void ReplayPanel::stopGlide() {
    glide_.stop();
    lanes_->setCursorTime(std::nullopt);
    pttl_->setCursorTime(std::nullopt);
}

void ReplayPanel::glideFrame() {
    if (!isPlaying()) {
        stopGlide();
        return;
    }
    const double progress =
        std::clamp(double(glideClock_.elapsed()) / std::max(1, player_.interval()), 0.0, 1.0);
    const sim::VirtualMs t =
        glideFrom_ + static_cast<sim::VirtualMs>(double(glideTo_ - glideFrom_) * progress);
    lanes_->setCursorTime(t);
    pttl_->setCursorTime(t);
}

sim::VirtualMs ReplayPanel::cursorTime() const {
    return lanes_->cursorTime();
}

}  // namespace lockscope::ui
