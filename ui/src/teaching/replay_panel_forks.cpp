// ReplayPanel's forks: an instance paused or crashed at a beat or a time (the lanes'
// right-click menu), the story re-simulated after it, listed in the sidebar; and the way
// back to the story's defaults.
#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include "outcome_comparison.h"
#include "replay_panel.h"
#include "replay_pttl_plot.h"
#include "scenario_param_form.h"
#include "sim_text.h"
#include "timeline_lanes.h"

namespace lockscope::ui {

bool ReplayPanel::pauseInstance(const QString& instance, qint64 durationMs) {
    try {
        replay_->pauseInstance(instance.toStdString(), durationMs);
    } catch (const std::exception& e) {
        showError(qs(e.what()));
        return false;
    }
    showInfo(tr("Forked: %1 is frozen for %2 from %3; the story after this beat was re-simulated.")
                 .arg(instance, qs(sim::formatDuration(durationMs)),
                      virtualTimeText(replay_->currentTime())));
    showStory();
    return true;
}

bool ReplayPanel::crashInstance(const QString& instance) {
    try {
        replay_->crashInstance(instance.toStdString());
    } catch (const std::exception& e) {
        showError(qs(e.what()));
        return false;
    }
    showInfo(tr("Forked: %1 crashed at %2; the story after this beat was re-simulated.")
                 .arg(instance, virtualTimeText(replay_->currentTime())));
    showStory();
    return true;
}

bool ReplayPanel::pauseInstanceAt(const QString& instance, qint64 atMs, qint64 durationMs) {
    try {
        replay_->pauseInstanceAt(instance.toStdString(), atMs, durationMs);
    } catch (const std::exception& e) {
        showError(qs(e.what()));
        return false;
    }
    showInfo(tr("Forked: %1 is frozen for %2 from %3; the story after that was re-simulated.")
                 .arg(instance, qs(sim::formatDuration(durationMs)), virtualTimeText(atMs)));
    showStory();
    return true;
}

bool ReplayPanel::crashInstanceAt(const QString& instance, qint64 atMs) {
    try {
        replay_->crashInstanceAt(instance.toStdString(), atMs);
    } catch (const std::exception& e) {
        showError(qs(e.what()));
        return false;
    }
    showInfo(tr("Forked: %1 crashed at %2; the story after that was re-simulated.")
                 .arg(instance, virtualTimeText(atMs)));
    showStory();
    return true;
}

void ReplayPanel::adoptReplay(std::unique_ptr<sim::Replay> replay) {
    setPlaying(false);
    replay_ = std::move(replay);
    {
        QSignalBlocker blockChooser(chooser_);
        QSignalBlocker blockSeed(seed_);
        chooser_->setCurrentIndex(chooser_->findData(qs(replay_->scenario().name)));
        seed_->setValue(static_cast<int>(replay_->seed()));
    }
    const sim::Scenario& s = replay_->scenario();
    params_->setScenario(s, replay_->params());
    showReferences();
    lanes_->setReplay(replay_.get());
    pttl_->setReplay(replay_.get());
    showStory();
}

void ReplayPanel::resetToDefaults() {
    const int beat = replay_->currentBeat();
    auto fresh = std::make_unique<sim::Replay>(replay_->scenario().name, replay_->seed());
    fresh->seek(beat);
    adoptReplay(std::move(fresh));
    showInfo(tr("Back to the story's defaults (no forks)."));
}

void ReplayPanel::showForks() {
    QStringList lines;
    for (const sim::Replay::Fork& f : replay_->forks())
        lines << (f.crash ? tr("✗ %1 crashes at %2").arg(qs(f.instance), virtualTimeText(f.at))
                          : tr("⏸ %1 frozen %2 at %3")
                                .arg(qs(f.instance), qs(sim::formatDuration(f.duration)),
                                     virtualTimeText(f.at)));
    forks_->setText(lines.isEmpty() ? QString()
                                    : tr("<b>Forked (not the story as told):</b><br>%1")
                                          .arg(lines.join(QStringLiteral("<br>"))));
    forks_->setVisible(!lines.isEmpty());
}

}  // namespace lockscope::ui
