#include "replay_panel.h"

#include <qcustomplot.h>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QSpinBox>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include "elided_label.h"
#include "lane_colors.h"
#include "live_run.h"
#include "lockscope/sim/run_verdict.h"
#include "lockscope/sim/scenario_file.h"
#include "narration_text.h"
#include "narration_view.h"
#include "outcome_comparison.h"
#include "presenter_mode.h"
#include "replay_pttl_plot.h"
#include "replay_transport.h"
#include "scenario_param_form.h"
#include "sim_text.h"
#include "timeline_lanes.h"

// The icons live in the static library's resources, registered by hand (outside any
// namespace, as Q_INIT_RESOURCE requires); harmless when the window did it already.
static void initTeachingResources() {
    Q_INIT_RESOURCE(resources);
}

namespace lockscope::ui {
namespace {

sim::OutcomeSummary referenceOutcome(const char* scenario) {
    if (!sim::findScenario(scenario)) return {};
    return sim::Replay(scenario).outcome();
}

}  // namespace

ReplayPanel::ReplayPanel(QWidget* parent) : QWidget(parent) {
    initTeachingResources();
    setObjectName(QStringLiteral("replayPanel"));
    setFocusPolicy(Qt::StrongFocus);
    brokenReference_ = referenceOutcome("broken-report");
    fixedReference_ = referenceOutcome("fixed-report");

    live_ = new LiveRun(this);
    QWidget* top = buildTopRow();
    transport_ = new ReplayTransport;
    QWidget* timeline = buildTimeline();
    updateLegend();
    narration_ = new NarrationView;
    comparison_ = new OutcomeComparison;
    comparison_->setObjectName(QStringLiteral("replayComparison"));

    QWidget* panes = buildPanes(timeline);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(top);
    layout->addWidget(transport_);
    layout->addWidget(panes, 1);

    player_.setInterval(1000);
    connect(&player_, &QTimer::timeout, this, &ReplayPanel::playTick);
    glide_.setInterval(33);
    connect(&glide_, &QTimer::timeout, this, &ReplayPanel::glideFrame);
    connect(transport_, &ReplayTransport::restartClicked, this, &ReplayPanel::restart);
    connect(transport_, &ReplayTransport::backClicked, this, &ReplayPanel::stepBack);
    connect(transport_, &ReplayTransport::forwardClicked, this, &ReplayPanel::stepForward);
    connect(transport_, &ReplayTransport::playClicked, this, &ReplayPanel::togglePlay);
    connect(transport_, &ReplayTransport::speedChanged, this, &ReplayPanel::setSpeed);
    connect(transport_, &ReplayTransport::scrubbed, this, &ReplayPanel::seek);
    connect(chooser_, &QComboBox::currentIndexChanged, this,
            [this] { loadScenario(chooser_->currentData().toString()); });
    connect(seed_, &QSpinBox::valueChanged, this, &ReplayPanel::setSeed);
    connect(predict_, &QCheckBox::toggled, this, &ReplayPanel::setPredictEnabled);
    connect(params_, &ScenarioParamForm::edited, this, &ReplayPanel::setParam);
    connect(params_, &ScenarioParamForm::resetRequested, this, &ReplayPanel::resetToDefaults);
    // After an edit the arrows and Space belong to the replay again.
    connect(params_, &ScenarioParamForm::editingDone, this, [this] { setFocus(); });
    connect(seed_, &QSpinBox::editingFinished, this, [this] { setFocus(); });
    connect(lanes_, &TimelineLanes::timeClicked, this, &ReplayPanel::seekTime);
    connect(lanes_, &TimelineLanes::pauseRequested, this, &ReplayPanel::pauseInstanceAt);
    connect(lanes_, &TimelineLanes::crashRequested, this, &ReplayPanel::crashInstanceAt);
    // The header column follows the lane names' font; the PTTL plot's time axis lines up.
    connect(lanes_, &TimelineLanes::headerWidthChanged, this, [this] {
        pttl_->setTimeAxis(lanes_->endTime(), lanes_->leftMargin(), lanes_->rightMargin());
    });
    connect(live_, &LiveRun::finished, this, &ReplayPanel::showLiveResult);
    presenter_ = new PresenterMode(
        {this, layout, topRow_, transport_, sidebar_, nowLine_, narration_}, this);
    connect(presenter_, &PresenterMode::zoomChanged, this, &ReplayPanel::applyZoom);

    loadScenario(sim::findScenario("broken-report") ? QStringLiteral("broken-report")
                                                    : chooser_->itemData(0).toString());
}

ReplayPanel::~ReplayPanel() = default;

bool ReplayPanel::predictEnabled() const {
    return predict_->isChecked();
}

bool ReplayPanel::loadScenario(const QString& name) {
    setPlaying(false);
    try {
        replay_ = std::make_unique<sim::Replay>(name.toStdString(),
                                                static_cast<std::uint64_t>(seed_->value()));
    } catch (const std::exception& e) {
        showError(qs(e.what()));
        return false;
    }
    {
        QSignalBlocker block(chooser_);
        chooser_->setCurrentIndex(chooser_->findData(name));
    }
    const sim::Scenario& s = replay_->scenario();
    params_->setScenario(s, replay_->params());
    showReferences();
    lanes_->setReplay(replay_.get());
    pttl_->setReplay(replay_.get());
    showInfo({});
    showStory();
    return true;
}

void ReplayPanel::showReferences() {
    const sim::Scenario& s = replay_->scenario();
    comparison_->setRows(sim::comparisonRowsFor(s));
    if (s.fixedBy.empty()) {  // the report stories: the guide's broken and fixed jobs
        comparison_->setColumn(kBrokenColumn, tr("broken-report\n(whole night)"), brokenReference_);
        comparison_->setColumn(kFixedColumn, tr("fixed-report\n(whole night)"), fixedReference_);
        return;
    }
    // Any other story is its own reference: as told, and with its fix (or without its fault).
    sim::ScenarioParams fixed = s.defaults();
    fixed.assign(s.fixedBy);
    const sim::OutcomeSummary asTold = sim::Replay(s.name).outcome();
    const sim::OutcomeSummary withFix = sim::Replay(s.name, fixed).outcome();
    comparison_->setColumn(kBrokenColumn, tr("as told\n(whole story)"), asTold);
    comparison_->setColumn(kFixedColumn, tr("%1\n(whole story)").arg(qs(s.fixedBy)), withFix);
}

bool ReplayPanel::totalsShown() const {
    const sim::Replay& r = *replay_;
    const bool end = r.currentBeat() >= 0 && r.atEnd();
    return end || !predict_->isChecked() || totals_->isChecked();
}

void ReplayPanel::showOrHideTotals() {
    const bool shown = totalsShown();
    comparison_->setColumnShown(kBrokenColumn, shown);
    comparison_->setColumnShown(kFixedColumn, shown);
    totals_->setEnabled(!(replay_->currentBeat() >= 0 && replay_->atEnd()) &&
                        predict_->isChecked());
    fitPanes();
}

void ReplayPanel::setSeed(int seed) {
    if (!replay_ || static_cast<int>(replay_->seed()) == seed) return;
    int beat = replay_->currentBeat();
    try {
        auto next = std::make_unique<sim::Replay>(replay_->scenario().name, replay_->params(),
                                                  static_cast<std::uint64_t>(seed));
        replay_ = std::move(next);
    } catch (const std::exception& e) {
        showError(qs(e.what()));
        return;
    }
    replay_->seek(beat);
    lanes_->setReplay(replay_.get());
    pttl_->setReplay(replay_.get());
    showStory();
}

bool ReplayPanel::setParam(const QString& name, qint64 value) {
    try {
        replay_->setParam(name.toStdString(), value);
    } catch (const std::exception& e) {
        showError(qs(e.what()));
        params_->setValues(replay_->params());
        return false;
    }
    params_->setValues(replay_->params());
    showInfo({});
    showStory();
    return true;
}

void ReplayPanel::showStory() {
    lanes_->refresh();
    pttl_->setTimeAxis(lanes_->endTime(), lanes_->leftMargin(), lanes_->rightMargin());
    title_->setFullText(
        QStringLiteral("%1 — %2").arg(qs(replay_->scenario().name), qs(replay_->scenario().title)));
    showForks();
    showBeat();
    // The rows and columns of this story; after the lanes have the new replay, since the
    // splitter's resize lays them out.
    fitPanes();
    emit storyChanged();
}

void ReplayPanel::showBeat() {
    const sim::Replay& r = *replay_;
    lanes_->refresh();
    pttl_->refresh();
    narration_->showReplay(r, predict_->isChecked());
    transport_->setPosition(r.currentBeat(), static_cast<int>(r.beats().size()),
                            virtualTimeText(r.currentTime()));
    bool end = r.currentBeat() >= 0 && r.atEnd();
    comparison_->setColumn(kCurrentColumn,
                           end ? tr("this run\n(the end)") : tr("this run\n(so far)"),
                           end ? r.outcome() : r.outcomeSoFar());
    showOrHideTotals();
    if (const sim::Beat* b = r.beat()) {
        QString what = b->command.empty()
                           ? narrationText(*b).section(QLatin1Char('.'), 0, 0)
                           : QStringLiteral("%1 → %2").arg(qs(b->shown), qs(b->reply));
        nowLine_->setFullText(tr("now %1 · beat %2/%3 · %4: %5")
                                  .arg(virtualTimeText(b->time))
                                  .arg(b->index + 1)
                                  .arg(r.beats().size())
                                  .arg(qs(b->actor), what));
    } else {
        nowLine_->setFullText(tr("before the first beat · %1 beats").arg(r.beats().size()));
    }
    showSummary();
    emit beatChanged(r.currentBeat());
}

void ReplayPanel::showSummary() {
    const sim::Replay& r = *replay_;
    const sim::Scenario& s = r.scenario();
    QString html = QStringLiteral("<p style='font-size:17px'><b>%1</b></p><p>%2</p>")
                       .arg(qs(s.title).toHtmlEscaped(), qs(s.summary).toHtmlEscaped());
    // The description sets the story up; once it has run to its end, its counts say how it
    // came out (a parameter or a fork can turn a safe story unsafe and back).
    if (r.currentBeat() >= 0 && r.atEnd())
        html += QStringLiteral("<p><b>%1</b> %2</p>")
                    .arg(tr("Verdict:"), qs(sim::runVerdict(r.outcome())).toHtmlEscaped());
    summary_->setText(html);
}

void ReplayPanel::stepForward() {
    if (replay_->stepForward()) showBeat();
}

void ReplayPanel::stepBack() {
    if (replay_->stepBack()) showBeat();
}

void ReplayPanel::restart() {
    replay_->restart();
    showBeat();
}

void ReplayPanel::seek(int beat) {
    if (beat == replay_->currentBeat()) return;
    replay_->seek(beat);
    showBeat();
}

void ReplayPanel::seekTime(qint64 virtualMs) {
    replay_->seekTime(virtualMs);
    showBeat();
}

void ReplayPanel::setPredictEnabled(bool on) {
    if (predict_->isChecked() != on)
        predict_->setChecked(on);  // re-enters through toggled
    else
        showBeat();
}

void ReplayPanel::showError(const QString& message) {
    lastError_ = message;
    status_->setText(message);
    status_->setStyleSheet(QStringLiteral("color: %1").arg(LaneColors::bad(palette()).name()));
}

void ReplayPanel::showInfo(const QString& message) {
    lastError_.clear();
    status_->setText(message);
    status_->setStyleSheet(QString());
}

}  // namespace lockscope::ui
