// ReplayPanel's widgets and their layout: the top row (ReplayTopRow, its requests wired here),
// the transport, the exported timeline (title, lanes, PTTL plot), the narration beside the
// broken-vs-fixed table, and the sidebar with the scenario's summary and parameters.
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include "elided_label.h"
#include "export_options.h"
#include "lane_colors.h"
#include "lane_fonts.h"
#include "narration_view.h"
#include "outcome_comparison.h"
#include "replay_panel.h"
#include "replay_pttl_plot.h"
#include "replay_top_row.h"
#include "replay_transport.h"
#include "scenario_param_form.h"
#include "sim_text.h"
#include "timeline_lanes.h"

namespace lockscope::ui {

QWidget* ReplayPanel::buildTopRow() {
    exportOptions_ = new ExportOptions(this);
    topRow_ = new ReplayTopRow(exportOptions_);
    chooser_ = topRow_->chooser();
    seed_ = topRow_->seed();
    predict_ = topRow_->predict();
    totals_ = topRow_->totals();
    connect(totals_, &QToolButton::toggled, this, [this] { showOrHideTotals(); });
    connect(topRow_, &ReplayTopRow::exportPngRequested, this,
            [this] { exportWithDialog(ExportKind::Png); });
    connect(topRow_, &ReplayTopRow::exportPdfRequested, this,
            [this] { exportWithDialog(ExportKind::Pdf); });
    connect(topRow_, &ReplayTopRow::exportSlidesRequested, this,
            [this] { exportWithDialog(ExportKind::Slides); });
    connect(topRow_, &ReplayTopRow::saveRequested, this, [this] { saveWithDialog(); });
    connect(topRow_, &ReplayTopRow::openRequested, this, [this] { openWithDialog(); });
    connect(topRow_, &ReplayTopRow::copyCommandRequested, this, [this] { copyCommand(); });
    connect(topRow_, &ReplayTopRow::exploreRequested, this, [this] { exploreWithDialog(); });
    connect(topRow_, &ReplayTopRow::liveRequested, this, [this] { startLiveRun(); });
    connect(topRow_, &ReplayTopRow::presenterToggled, this, &ReplayPanel::presenterModeRequested);
    return topRow_;
}

QWidget* ReplayPanel::buildPanes(QWidget* timeline) {
    auto* bottom = bottom_ = new QSplitter(Qt::Horizontal);
    bottom->addWidget(narration_);
    bottom->addWidget(comparison_);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 1);
    bottom->setSizes({560, 520});
    vertical_ = new QSplitter(Qt::Vertical);
    vertical_->addWidget(timeline);
    vertical_->addWidget(bottom);
    vertical_->setStretchFactor(0, 3);
    vertical_->setStretchFactor(1, 1);
    vertical_->setChildrenCollapsible(false);
    vertical_->setSizes({700, 260});  // proportions: the narration needs room to be read
    auto* split = new QSplitter(Qt::Horizontal);
    split->addWidget(vertical_);
    split->addWidget(buildSidebar());
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 0);
    // The sidebar and the narration split can be dragged, down to nothing.
    split->setChildrenCollapsible(true);
    bottom->setChildrenCollapsible(true);
    return split;
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
