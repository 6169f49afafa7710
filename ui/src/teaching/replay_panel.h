#pragma once
// The teaching tab: a seeded, deterministic replay of the guide's scenarios, told beat by
// beat. A scenario chooser, seed and parameter editors (an edit re-runs the story at
// once); transport controls with a scrubber and the keys ← → Space Home End; the lanes with
// the PTTL plot under them; the narration with predict prompts; the broken-vs-fixed table;
// right-click forks (pause or crash an instance here); PNG and PDF export for slides.
// Needs no Redis server: everything runs on the simulator.

#include <QElapsedTimer>
#include <QTimer>
#include <QWidget>
#include <memory>

#include "lockscope/sim/explorer.h"
#include "lockscope/sim/replay.h"
#include "slide_exporter.h"

class QCheckBox;
class QPainter;
class QComboBox;
class QLabel;
class QSpinBox;
class QSplitter;
class QTableWidget;
class QToolButton;

namespace lockscope::ui {

class ElidedLabel;
class ExportOptions;
class LiveRun;
class NarrationView;
class OutcomeComparison;
class PresenterMode;
class ReplayPttlPlot;
class ReplayTopRow;
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
    // The whole-night totals (the table's reference columns) would answer the predict
    // prompts from beat 0: with the prompts on they wait for the story's end, or for this
    // toggle.
    QToolButton* totalsToggle() const { return totals_; }
    bool totalsShown() const;
    QWidget* timeline() const { return timeline_; }
    ReplayTopRow* topRow() const { return topRow_; }
    LiveRun* liveRun() const { return live_; }

    // Slides: the full title, any fork note, the timeline, the beat's narration and the
    // outcome table, drawn at `size` (PNG: times `scale` pixels). exportSlides: one PDF page
    // per beat.
    static constexpr QSize kSlideSize{1600, 900};
    bool exportPng(const QString& path, QSize size = kSlideSize, double scale = 2.0);
    bool exportPdf(const QString& path, QSize size = kSlideSize);
    bool exportSlides(const QString& path, QSize size = kSlideSize);
    QString forkNote() const;
    // What the last slide drawn was given (tests): its type sizes, whether all of it fit.
    using SlideFacts = SlideExporter::SlideFacts;
    const SlideFacts& lastSlide();
    // Where the "now" cursor is drawn: the current beat's time, or between it and the next
    // beat's while the story plays (replay_panel_glide.cpp).
    sim::VirtualMs cursorTime() const;
    // The size and scale the export menu's chooser holds, and an export at them.
    ExportOptions* exportOptions() const { return exportOptions_; }
    enum class ExportKind { Png, Pdf, Slides };
    bool exportAsChosen(ExportKind kind, const QString& path);

    // Explore faults (sim::explore) on the story as it stands; the table the dialog shows;
    // opening a property's shortest counterexample as the story.
    sim::ExploreResult exploreFaults(int budget);
    static QTableWidget* exploreTable(const sim::ExploreResult& result);
    bool openCounterexample(
        const sim::ExploreResult& result,
        int property);  // "Forked, not the story as told: …", empty if not forked

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
    // Every parameter back to the story's default and the forks dropped; keeps the beat.
    void resetToDefaults();
    // The scenario file (.lockscope): story, seed, parameters, forks, current beat.
    bool saveScenario(const QString& path);
    bool openScenario(const QString& path);
    // The equivalent "lockscope-cli replay …" line (what "Copy as command" puts on the
    // clipboard).
    QString commandLine() const;
    void copyCommand();  // commandLine() to the clipboard
    // Runs the loaded scenario (parameters and seed, not the forks) against a private
    // redis-server on a worker thread; the table gains a "live" column when it is done.
    bool startLiveRun(int realMsPerVirtualSecond = 0);

    // Presenter mode (the window's F11 and the panel's button): no sidebar, bigger fonts.
    void setPresenterMode(bool on);
    bool presenterMode() const;
    // Ctrl+= / Ctrl+- / Ctrl+0: the whole teaching view's fonts, 60 % .. 250 %.
    void zoomIn();
    void zoomOut();
    void resetZoom();
    double zoom() const;
    QWidget* sidebar() const { return sidebar_; }

  signals:
    void presenterModeRequested(bool on);
    void beatChanged(int beat);
    void storyChanged();

  protected:
    void keyPressEvent(QKeyEvent* event) override;
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

  private:
    QWidget* buildTopRow();  // the top row's requests wired to the panel
    QWidget* buildSidebar();
    // The timeline over the narration beside the table, the sidebar to their right.
    QWidget* buildPanes(QWidget* timeline);
    QWidget* buildTimeline();
    void showStory();         // the recording changed (load, parameter, fork)
    void showBeat();          // the current beat changed
    void showSummary();       // the sidebar's description, and the verdict at the end
    void showReferences();    // the table's rows and reference columns for the story
    void showOrHideTotals();  // the reference columns: at the end, or when asked
    void playTick();
    void startGlide();
    void stopGlide();
    void glideFrame();
    void showError(const QString& message);  // red, and lastError()
    void showInfo(const QString& message);
    void exportWithDialog(ExportKind kind);
    SlideExporter& slides();
    bool exported(bool ok);
    void saveWithDialog();
    void exploreWithDialog();
    void openWithDialog();
    void showForks();  // the sidebar's list of the user's forks
    void adoptReplay(std::unique_ptr<sim::Replay> replay);
    void showLiveResult();
    void updateLegend();
    void applyZoom();         // every font at LaneFonts::zoom() (PresenterMode changed it)
    void applyZoomedFonts();  // the timeline's title and its legend
    // The panes on a short screen (1280×720), in either mode: the narration box gets the
    // room its pinned verdict or question needs, and in presenter mode the table gets the
    // room to show every row and column; the timeline keeps the rest.
    void fitPanes();
    // Whether the PTTL plot may show: not on a short panel (640 px at zoom 1, 800 in
    // presenter mode), where the plot would be squeezed to a few unreadable pixels and
    // the narration box under it with it, and never when its height would make the window
    // taller than its screen (nine lanes on a 720p projector: the window would reach below
    // the screen's edge, the table cut off).
    bool roomForThePttlPlot() const;

    std::unique_ptr<sim::Replay> replay_;
    sim::OutcomeSummary brokenReference_, fixedReference_;
    QTimer player_;
    QTimer glide_;  // 30 frames a second while playing
    QElapsedTimer glideClock_;
    sim::VirtualMs glideFrom_ = 0, glideTo_ = 0;
    QString lastError_;

    QComboBox* chooser_;
    QSpinBox* seed_;
    QCheckBox* predict_;
    QToolButton* totals_;
    ExportOptions* exportOptions_ = nullptr;
    ReplayTopRow* topRow_;
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
    QLabel* forks_;
    QSplitter* vertical_;
    QSplitter* bottom_;  // the narration beside the table
    QWidget* sidebar_ = nullptr;
    PresenterMode* presenter_ = nullptr;
    std::unique_ptr<SlideExporter> slides_;
};

}  // namespace lockscope::ui
