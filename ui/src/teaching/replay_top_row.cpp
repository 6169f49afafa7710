#include "replay_top_row.h"

#include <QAbstractItemView>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <limits>

#include "export_options.h"
#include "lockscope/sim/scenario.h"
#include "sim_text.h"

namespace lockscope::ui {

ReplayTopRow::ReplayTopRow(ExportOptions* exportOptions, QWidget* parent) : QWidget(parent) {
    buildStoryControls();
    buildModeButtons();
    buildFileMenu();
    buildExportMenu(exportOptions);
    layOut();
}

void ReplayTopRow::buildStoryControls() {
    chooserLabel_ = new QLabel(tr("Scenario"));
    chooser_ = new QComboBox;
    chooser_->setObjectName(QStringLiteral("replayScenario"));
    chooser_->setFocusPolicy(Qt::NoFocus);
    chooser_->setToolTip(tr("The story to tell"));
    for (const sim::Scenario& s : sim::scenarios()) {
        chooser_->addItem(qs(s.name), qs(s.name));
        chooser_->setItemData(chooser_->count() - 1, qs(s.title), Qt::ToolTipRole);
    }
    seedLabel_ = new QLabel(tr("Seed"));
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
}

void ReplayTopRow::buildModeButtons() {
    live_ = new QToolButton;
    live_->setObjectName(QStringLiteral("replayLive"));
    live_->setIcon(QIcon(QStringLiteral(":/icons/sandbox.svg")));
    live_->setText(tr("Run live on redis-server"));
    live_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    live_->setFocusPolicy(Qt::NoFocus);
    live_->setToolTip(
        tr("Play this scenario against a private redis-server and a real SQLite store on a "
           "worker thread, and check that the real server tells the same story"));
    connect(live_, &QToolButton::clicked, this, &ReplayTopRow::liveRequested);
    presenter_ = new QToolButton;
    presenter_->setObjectName(QStringLiteral("replayPresenter"));
    presenter_->setText(tr("Presenter mode"));
    presenter_->setCheckable(true);
    presenter_->setFocusPolicy(Qt::NoFocus);
    presenter_->setToolTip(
        tr("Full screen for a projector, no sidebar (F11); Ctrl+= and "
           "Ctrl+- zoom, Ctrl+0 resets"));
    connect(presenter_, &QToolButton::clicked, this, &ReplayTopRow::presenterToggled);
}

void ReplayTopRow::buildFileMenu() {
    file_ = new QToolButton;
    file_->setObjectName(QStringLiteral("replayFile"));
    file_->setText(tr("Scenario file"));
    file_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    file_->setPopupMode(QToolButton::InstantPopup);
    file_->setFocusPolicy(Qt::NoFocus);
    file_->setToolTip(
        tr("Save this story with its seed, parameters, forks and beat, open one, "
           "or copy the equivalent lockscope-cli command"));
    auto* menu = new QMenu(file_);
    menu->addAction(tr("Save scenario…"), this, &ReplayTopRow::saveRequested);
    menu->addAction(tr("Open scenario…"), this, &ReplayTopRow::openRequested);
    menu->addAction(tr("Copy as command"), this, &ReplayTopRow::copyCommandRequested);
    menu->addSeparator();
    menu->addAction(tr("Explore faults: every schedule of one or two…"), this,
                    &ReplayTopRow::exploreRequested);
    file_->setMenu(menu);
}

void ReplayTopRow::buildExportMenu(ExportOptions* exportOptions) {
    export_ = new QToolButton;
    export_->setObjectName(QStringLiteral("replayExport"));
    export_->setIcon(QIcon(QStringLiteral(":/icons/export.svg")));
    export_->setText(tr("Export timeline"));
    export_->setToolTip(tr("Export this beat, or every beat, as slides"));
    export_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    export_->setPopupMode(QToolButton::InstantPopup);
    export_->setFocusPolicy(Qt::NoFocus);
    auto* menu = new QMenu(export_);
    menu->addAction(tr("This beat as a PNG slide…"), this, &ReplayTopRow::exportPngRequested);
    menu->addAction(tr("This beat as a PDF slide…"), this, &ReplayTopRow::exportPdfRequested);
    menu->addAction(tr("Export as slides: one PDF page per beat…"), this,
                    &ReplayTopRow::exportSlidesRequested);
    menu->addSeparator();
    exportOptions->addTo(menu);
    export_->setMenu(menu);
}

void ReplayTopRow::layOut() {
    auto* layout = layout_ = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(chooserLabel_);
    layout->addWidget(chooser_);
    layout->addSpacing(12);
    layout->addWidget(seedLabel_);
    layout->addWidget(seed_);
    layout->addSpacing(12);
    layout->addWidget(predict_);
    layout->addWidget(totals_);
    layout->addStretch(1);
    layout->addWidget(live_);
    layout->addWidget(presenter_);
    layout->addWidget(file_);
    layout->addWidget(export_);
}

void ReplayTopRow::setPresenting(bool on, int pixels, int iconPixels) {
    presenting_ = on;
    // Seed, live run and scenario file are the preparation's, not the lesson's.
    for (QWidget* w :
         {static_cast<QWidget*>(chooserLabel_), static_cast<QWidget*>(seedLabel_),
          static_cast<QWidget*>(seed_), static_cast<QWidget*>(live_), static_cast<QWidget*>(file_)})
        w->setVisible(!on);
    presenter_->setText(on ? tr("Exit (F11)") : tr("Presenter mode"));
    presenter_->setToolTip(on ? tr("Leave presenter mode (F11); Ctrl+= and Ctrl+- zoom, Ctrl+0 "
                                   "resets")
                              : tr("Full screen for a projector, no sidebar (F11); Ctrl+= and "
                                   "Ctrl+- zoom, Ctrl+0 resets"));
    export_->setToolButtonStyle(on ? Qt::ToolButtonIconOnly : Qt::ToolButtonTextBesideIcon);
    QFont font;  // the window's own
    if (on) font.setPixelSize(pixels);
    setFont(font);
    // The chooser's list and the menus open in the same type as the row.
    chooser_->view()->setFont(font);
    const int icon =
        on ? iconPixels : style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    export_->setIconSize(QSize(icon, icon));
}

void ReplayTopRow::holdTransport(QWidget* transport) {
    if (transport) layout_->insertWidget(layout_->indexOf(chooser_) + 1, transport);
}

QList<QWidget*> ReplayTopRow::presenterControls() const {
    return {chooser_, predict_, totals_, presenter_, export_};
}

}  // namespace lockscope::ui
