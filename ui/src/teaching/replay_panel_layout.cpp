// ReplayPanel's widgets and their layout: the top row (scenario, seed, predict, export),
// the transport, the exported timeline (title, lanes, PTTL plot), the narration beside the
// broken-vs-fixed table, and the sidebar with the scenario's summary and parameters.
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>
#include <limits>

#include "elided_label.h"
#include "export_options.h"
#include "lane_colors.h"
#include "lane_fonts.h"
#include "narration_view.h"
#include "outcome_comparison.h"
#include "replay_panel.h"
#include "replay_pttl_plot.h"
#include "replay_transport.h"
#include "scenario_param_form.h"
#include "sim_text.h"
#include "timeline_lanes.h"

namespace lockscope::ui {

QWidget* ReplayPanel::buildTopRow() {
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    chooser_ = new QComboBox;
    chooser_->setObjectName(QStringLiteral("replayScenario"));
    chooser_->setFocusPolicy(Qt::NoFocus);
    for (const sim::Scenario& s : sim::scenarios()) {
        chooser_->addItem(qs(s.name), qs(s.name));
        chooser_->setItemData(chooser_->count() - 1, qs(s.title), Qt::ToolTipRole);
    }
    seed_ = new QSpinBox;
    seed_->setObjectName(QStringLiteral("replaySeed"));
    seed_->setRange(0, std::numeric_limits<int>::max());
    seed_->setValue(1);
    seed_->setKeyboardTracking(false);
    seed_->setFocusPolicy(Qt::ClickFocus);
    seed_->setToolTip(
        tr("The random seed: the same seed and parameters always tell the same story"));
    predict_ = new QCheckBox(tr("Predict prompts"));
    predict_->setObjectName(QStringLiteral("replayPredict"));
    predict_->setChecked(true);
    predict_->setFocusPolicy(Qt::NoFocus);
    predict_->setToolTip(
        tr("Ask the class what happens next before the beats that have a question"));
    totals_ = new QToolButton;
    totals_->setObjectName(QStringLiteral("replayTotals"));
    totals_->setText(tr("Show totals"));
    totals_->setCheckable(true);
    totals_->setFocusPolicy(Qt::NoFocus);
    totals_->setToolTip(
        tr("The whole-night totals of the broken and the fixed story: with predict prompts on "
           "they wait for the last beat, so the table does not answer the questions"));
    connect(totals_, &QToolButton::toggled, this, [this] { showOrHideTotals(); });
    exportOptions_ = new ExportOptions(this);
    export_ = new QToolButton;
    export_->setIcon(QIcon(QStringLiteral(":/icons/export.svg")));
    export_->setText(tr("Export timeline"));
    export_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    export_->setPopupMode(QToolButton::InstantPopup);
    export_->setFocusPolicy(Qt::NoFocus);
    auto* menu = new QMenu(export_);
    menu->addAction(tr("This beat as a PNG slide…"), this,
                    [this] { exportWithDialog(ExportKind::Png); });
    menu->addAction(tr("This beat as a PDF slide…"), this,
                    [this] { exportWithDialog(ExportKind::Pdf); });
    menu->addAction(tr("Export as slides: one PDF page per beat…"), this,
                    [this] { exportWithDialog(ExportKind::Slides); });
    menu->addSeparator();
    exportOptions_->addTo(menu);
    export_->setMenu(menu);
    file_ = new QToolButton;
    file_->setObjectName(QStringLiteral("replayFile"));
    file_->setText(tr("Scenario file"));
    file_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    file_->setPopupMode(QToolButton::InstantPopup);
    file_->setFocusPolicy(Qt::NoFocus);
    file_->setToolTip(
        tr("Save this story with its seed, parameters, forks and beat, open one, "
           "or copy the equivalent lockscope-cli command"));
    auto* fileMenu = new QMenu(file_);
    fileMenu->addAction(tr("Save scenario…"), this, [this] { saveWithDialog(); });
    fileMenu->addAction(tr("Open scenario…"), this, [this] { openWithDialog(); });
    fileMenu->addAction(tr("Copy as command"), this, [this] { copyCommand(); });
    fileMenu->addSeparator();
    fileMenu->addAction(tr("Explore faults: every schedule of one or two…"), this,
                        [this] { exploreWithDialog(); });
    file_->setMenu(fileMenu);

    layout->addWidget(new QLabel(tr("Scenario")));
    layout->addWidget(chooser_);
    layout->addSpacing(12);
    layout->addWidget(new QLabel(tr("Seed")));
    layout->addWidget(seed_);
    layout->addSpacing(12);
    layout->addWidget(predict_);
    layout->addWidget(totals_);
    liveButton_ = new QToolButton;
    liveButton_->setObjectName(QStringLiteral("replayLive"));
    liveButton_->setIcon(QIcon(QStringLiteral(":/icons/sandbox.svg")));
    liveButton_->setText(tr("Run live on redis-server"));
    liveButton_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    liveButton_->setFocusPolicy(Qt::NoFocus);
    liveButton_->setToolTip(
        tr("Play this scenario against a private redis-server and a real SQLite store on a "
           "worker thread, and check that the real server tells the same story"));
    connect(liveButton_, &QToolButton::clicked, this, [this] { startLiveRun(); });

    layout->addStretch(1);
    layout->addWidget(liveButton_);
    presenterButton_ = new QToolButton;
    presenterButton_->setObjectName(QStringLiteral("replayPresenter"));
    presenterButton_->setText(tr("Presenter mode"));
    presenterButton_->setCheckable(true);
    presenterButton_->setFocusPolicy(Qt::NoFocus);
    presenterButton_->setToolTip(
        tr("Full screen for a projector, no sidebar (F11); Ctrl+= and "
           "Ctrl+- zoom, Ctrl+0 resets"));
    connect(presenterButton_, &QToolButton::clicked, this,
            [this](bool on) { emit presenterModeRequested(on); });
    layout->addWidget(presenterButton_);
    layout->addWidget(file_);
    layout->addWidget(export_);
    return row;
}

QWidget* ReplayPanel::buildTimeline() {
    timeline_ = new QWidget;
    timeline_->setObjectName(QStringLiteral("replayTimeline"));
    timeline_->setAutoFillBackground(true);
    timeline_->setBackgroundRole(QPalette::Base);
    auto* layout = new QVBoxLayout(timeline_);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(2);
    title_ = new ElidedLabel;
    title_->setObjectName(QStringLiteral("replayTitle"));
    title_->setFont(LaneFonts::sized(20, true));
    title_->setContentsMargins(12, 0, 12, 0);
    nowLine_ = new ElidedLabel;
    nowLine_->setFont(LaneFonts::sized(16, false));
    nowLine_->setContentsMargins(12, 0, 12, 2);
    lanes_ = new TimelineLanes;
    pttl_ = new ReplayPttlPlot;
    // How to read the lanes, for a class seeing them for the first time (and on slides).
    legend_ = new QLabel;
    legend_->setObjectName(QStringLiteral("replayLegend"));
    legend_->setFont(LaneFonts::sized(13, false));
    legend_->setContentsMargins(12, 0, 12, 2);
    legend_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    layout->addWidget(title_);
    layout->addWidget(nowLine_);
    layout->addWidget(lanes_, 3);
    layout->addWidget(legend_);
    layout->addWidget(pttl_, 1);
    return timeline_;
}

void ReplayPanel::updateLegend() {
    const QPalette& pal = palette();
    legend_->setText(
        tr("<span style='color:%1'>■</span> holds the lock &nbsp; ▭ job running &nbsp; "
           "<span style='color:%2'>▨</span> working without the lock &nbsp; "
           "<span style='color:%3'>▨</span> frozen / crashed &nbsp; hollow pill: changed nothing "
           "&nbsp; <span style='color:%2'>◯</span> harm &nbsp; shaded: not yet")
            .arg(LaneColors::actor(QStringLiteral("A"), pal).name(), LaneColors::lapse(pal).name(),
                 LaneColors::pause(pal).name()));
}

QWidget* ReplayPanel::buildSidebar() {
    auto* side = new QWidget;
    auto* layout = new QVBoxLayout(side);
    summary_ = new QLabel;
    summary_->setObjectName(QStringLiteral("replaySummary"));
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::RichText);
    summary_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    auto* group = new QGroupBox(tr("Parameters (an edit re-runs the story)"));
    auto* groupLayout = new QVBoxLayout(group);
    params_ = new ScenarioParamForm;
    groupLayout->addWidget(params_);
    auto* reset = new QToolButton;
    reset->setObjectName(QStringLiteral("replayReset"));
    reset->setText(tr("Reset to the story's defaults"));
    reset->setFocusPolicy(Qt::NoFocus);
    connect(reset, &QToolButton::clicked, params_, &ScenarioParamForm::resetToDefaults);
    groupLayout->addWidget(reset);
    forks_ = new QLabel;
    forks_->setObjectName(QStringLiteral("replayForks"));
    forks_->setWordWrap(true);
    forks_->setTextFormat(Qt::RichText);
    forks_->hide();
    status_ = new QLabel;
    status_->setObjectName(QStringLiteral("replayStatus"));
    status_->setWordWrap(true);
    layout->addWidget(summary_);
    layout->addWidget(group);
    layout->addWidget(forks_);
    layout->addWidget(status_);
    layout->addStretch(1);
    auto* scroll = new QScrollArea;
    scroll->setWidget(side);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setMinimumWidth(300);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    sidebar_ = scroll;
    return scroll;
}

}  // namespace lockscope::ui
