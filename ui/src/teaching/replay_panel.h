#pragma once
// The teaching tab: a seeded, deterministic replay of the guide's scenarios, told beat by
// beat. A scenario chooser, seed and parameter editors (an edit re-runs the story at
// once); transport controls with a scrubber and the keys ← → Space Home; the lanes with
// the PTTL plot under them; the narration with predict prompts; the broken-vs-fixed table;
// right-click forks (pause or crash an instance here); PNG and PDF export for slides.
// Needs no Redis server: everything runs on the simulator.

#include <QTimer>
#include <QWidget>
#include <memory>

#include "lockscope/sim/replay.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QSplitter;
class QToolButton;

namespace lockscope::ui {

class ElidedLabel;
class LiveRun;
class NarrationView;
class OutcomeComparison;
class ReplayPttlPlot;
class ReplayTransport;
class ScenarioParamForm;
class TimelineLanes;

class ReplayPanel : public QWidget {
    Q_OBJECT
  public:
    explicit ReplayPanel(QWidget* parent = nullptr);
    ~ReplayPanel() override;

    const sim::Replay& replay() const { return *replay_; }
    bool isPlaying() const { return player_.isActive(); }
    bool predictEnabled() const;
    QString lastError() const { return lastError_; }

    // The summary table's columns.
    static constexpr int kBrokenColumn = 0;
    static constexpr int kFixedColumn = 1;
    static constexpr int kCurrentColumn = 2;
    static constexpr int kLiveColumn = 3;  // after a live run

    TimelineLanes* lanes() const { return lanes_; }
    ReplayPttlPlot* pttlPlot() const { return pttl_; }
    NarrationView* narration() const { return narration_; }
    OutcomeComparison* comparison() const { return comparison_; }
    ScenarioParamForm* paramForm() const { return params_; }
    ReplayTransport* transport() const { return transport_; }
    QComboBox* scenarioChooser() const { return chooser_; }
    QCheckBox* predictToggle() const { return predict_; }
    QWidget* timeline() const { return timeline_; }
    LiveRun* liveRun() const { return live_; }

    // The timeline (title, lanes, PTTL plot) for slides.
    bool exportPng(const QString& path);
    bool exportPdf(const QString& path);

  public slots:
    bool loadScenario(const QString& name);
    void setSeed(int seed);
    // Re-runs the story with the new value; false (and lastError()) when it is refused.
    bool setParam(const QString& name, qint64 value);
    void stepForward();
    void stepBack();
    void restart();
    void seek(int beat);
    void seekTime(qint64 virtualMs);
    void togglePlay();
    void setPlaying(bool playing);
    void setSpeed(double beatsPerSecond);
    void setPredictEnabled(bool on);
    // Forks the story at the current beat (what the lanes' right-click menu does, after
    // moving back to where the click was).
    bool pauseInstance(const QString& instance, qint64 durationMs);
    bool crashInstance(const QString& instance);
    bool pauseInstanceAt(const QString& instance, qint64 atMs, qint64 durationMs);
    bool crashInstanceAt(const QString& instance, qint64 atMs);
    // Runs the loaded scenario (parameters and seed, not the forks) against a private
    // redis-server on a worker thread; the table gains a "live" column when it is done.
    bool startLiveRun(int realMsPerVirtualSecond = 0);

  signals:
    void beatChanged(int beat);
    void storyChanged();

  protected:
    void keyPressEvent(QKeyEvent* event) override;
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

  private:
    QWidget* buildTopRow();
    QWidget* buildSidebar();
    QWidget* buildTimeline();
    void showStory();       // the recording changed (load, parameter, fork)
    void showBeat();        // the current beat changed
    void showReferences();  // the table's rows and reference columns for the story
    void playTick();
    void showError(const QString& message);  // red, and lastError()
    void showInfo(const QString& message);
    void exportWithDialog(bool pdf);
    void prepareExport();
    void showLiveResult();
    void updateLegend();

    std::unique_ptr<sim::Replay> replay_;
    sim::OutcomeSummary brokenReference_, fixedReference_;
    QTimer player_;
    QString lastError_;

    QComboBox* chooser_;
    QSpinBox* seed_;
    QCheckBox* predict_;
    QToolButton* export_;
    QToolButton* liveButton_;
    LiveRun* live_;
    ReplayTransport* transport_;
    QWidget* timeline_;
    ElidedLabel* title_;
    ElidedLabel* nowLine_;
    QLabel* legend_;
    TimelineLanes* lanes_;
    ReplayPttlPlot* pttl_;
    NarrationView* narration_;
    OutcomeComparison* comparison_;
    QLabel* summary_;
    ScenarioParamForm* params_;
    QLabel* status_;
    QSplitter* vertical_;
};

}  // namespace lockscope::ui
