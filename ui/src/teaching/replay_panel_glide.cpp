// ReplayPanel's playback (play/pause at a speed, stopping where a question waits for the
// class) and its gliding cursor: while the story plays, the "now" cursor of the lanes and of
// the PTTL plot moves smoothly from the current beat's time toward the next beat's, at 30
// frames a second over the beat interval, instead of jumping from beat to beat. The lanes
// still show the story at the current beat; the next beat is revealed when the cursor gets
// there.
#include <algorithm>

#include <QCheckBox>
#include "replay_panel.h"
#include "replay_pttl_plot.h"
#include "replay_transport.h"
#include "timeline_lanes.h"

namespace lockscope::ui {

void ReplayPanel::togglePlay() {
    setPlaying(!isPlaying());
}

void ReplayPanel::setPlaying(bool playing) {
    if (playing == isPlaying()) return;
    if (playing) {
        if (replay_->atEnd()) restart();
        player_.start();
        playTick();
    } else {
        player_.stop();
        stopGlide();
    }
    transport_->setPlaying(isPlaying());
}

void ReplayPanel::playTick() {
    if (!replay_->stepForward()) {
        setPlaying(false);
        return;
    }
    showBeat();
    // A question waits for the class: playback stops until Space or →.
    if (replay_->atEnd() || (predict_->isChecked() && replay_->pendingQuestion()))
        setPlaying(false);
    else
        startGlide();
}

void ReplayPanel::setSpeed(double beatsPerSecond) {
    player_.setInterval(std::max(50, static_cast<int>(1000.0 / std::max(0.1, beatsPerSecond))));
}

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
