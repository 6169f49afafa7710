// MainWindow's tool bar, File and Settings menus, and the lock actions that mirror the
// detail pane's buttons.
#include <QAction>
#include <QInputDialog>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>
#include <QToolBar>

#include "session/connection_hub.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/main_window.h"

namespace lockscope::ui {

void MainWindow::buildActions() {
    auto* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setIconSize(QSize(20, 20));
    auto add = [&](const QString& icon, const QString& text, const QKeySequence& key, auto slot) {
        auto* action = new QAction(
            QIcon(QStringLiteral(":/icons/") + icon + QStringLiteral(".svg")), text, this);
        if (!key.isEmpty()) {
            action->setShortcut(key);
            action->setToolTip(
                QStringLiteral("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
        }
        connect(action, &QAction::triggered, this, slot);
        addAction(action);
        return action;
    };
    bar->addAction(
        add("add-connection", tr("Add connection"), QKeySequence(), [this] { addConnection(); }));
    bar->addAction(add("sandbox", tr("Sandbox"), QKeySequence(), [this] { startSandbox(); }));
    add("play", tr("Presenter mode"), QKeySequence(Qt::Key_F11),
        [this] { setPresenterMode(!presenter_); });
    bar->addSeparator();
    bar->addAction(
        add("refresh", tr("Refresh"), QKeySequence(Qt::Key_F5), [this] { hub_->refreshAll(); }));
    add("refresh", tr("Focus filter"), QKeySequence::Find, [this] { inspector_->focusFilter(); });
    fullSpeedAction_ =
        add("refresh", tr("Scan now at full speed"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
            [this] { hub_->refreshAllAtFullSpeed(); });
    fullSpeedAction_->setToolTip(
        tr("Rescan every connection now without the scan pace: faster, and heavier on the "
           "servers for as long as it runs (Shift+F5)"));
    bar->addSeparator();
    releaseAction_ = add("release", tr("Release"), QKeySequence(Qt::Key_Delete),
                         [this] { inspector_->releaseSelected(); });
    addTtlAction_ = add("add-ttl", tr("Add TTL"), QKeySequence(Qt::CTRL | Qt::Key_T),
                        [this] { inspector_->addTtlToSelected(); });
    forceDeleteAction_ =
        add("force-delete", tr("Force delete"), QKeySequence(Qt::SHIFT | Qt::Key_Delete),
            [this] { inspector_->forceDeleteSelected(); });
    copyAction_ = add("copy", tr("Copy token"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                      [this] { inspector_->copySelectedToken(); });
    for (QAction* a : {releaseAction_, addTtlAction_, forceDeleteAction_, copyAction_})
        bar->addAction(a);
    connect(inspector_->detail(), &LockDetailPane::actionsChanged, this,
            &MainWindow::updateLockActions);
    updateLockActions();
    discoverAction_ = add("doctor", tr("Discover"), QKeySequence(Qt::CTRL | Qt::Key_D),
                          [this] { discoverLocks(); });
    bar->addAction(discoverAction_);
    bar->addSeparator();
    bar->addAction(add("lockscope", tr("About"), QKeySequence(), [this] { showAbout(); }));
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(add("add-connection", tr("Add connection…"), QKeySequence::New,
                        [this] { addConnection(); }));
    file->addAction(
        add("play", tr("Open history…"), QKeySequence::Open, [this] { chooseHistory(); }));
    file->addSeparator();
    file->addAction(add("add-connection", tr("Import connections…"), QKeySequence(),
                        [this] { chooseConnectionsToImport(); }));
    file->addAction(
        add("export", tr("Export connections…"), QKeySequence(), [this] { chooseExportFile(); }));
    file->addSeparator();
    // Ctrl+Q spelled out: QKeySequence::Quit is empty on some platforms. Closing the window
    // saves its state and ends the application (closeEvent).
    quitAction_ = new QAction(tr("&Quit"), this);
    quitAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quitAction_->setMenuRole(QAction::QuitRole);
    connect(quitAction_, &QAction::triggered, this, &QWidget::close);
    addAction(quitAction_);
    file->addAction(quitAction_);
}

void MainWindow::updateLockActions() {
    // Exactly as the detail pane's buttons: enabled when the action can work, and when not,
    // the tooltip says why (no selection, read-only, connection down, lock gone).
    const LockDetailPane* detail = inspector_->detail();
    const std::pair<QAction*, QPushButton*> pairs[] = {
        {releaseAction_, detail->releaseButton()},
        {addTtlAction_, detail->addTtlButton()},
        {forceDeleteAction_, detail->forceDeleteButton()}};
    for (auto [action, button] : pairs) {
        action->setEnabled(button->isEnabled());
        QString tip = button->toolTip();
        if (!button->isEnabled()) tip = detail->whyDisabled(button);
        action->setToolTip(
            QStringLiteral("%1 (%2): %3")
                .arg(action->text(), action->shortcut().toString(QKeySequence::NativeText), tip));
    }
    const bool selected = detail->shown().has_value();
    copyAction_->setEnabled(selected);
    copyAction_->setToolTip(
        selected ? tr("Copy the holder token (%1)")
                       .arg(copyAction_->shortcut().toString(QKeySequence::NativeText))
                 : tr("Select a lock first"));
}

void MainWindow::buildSettingsMenu() {
    QMenu* menu = menuBar()->addMenu(tr("&Settings"));
    QAction* confirm = menu->addAction(tr("Confirm before Release"));
    confirm->setCheckable(true);
    confirm->setChecked(settings_.value("actions/confirmRelease", true).toBool());
    confirm->setToolTip(tr("Show key, holder, fence and TTL and ask before a release"));
    inspector_->detail()->setConfirmRelease(confirm->isChecked());
    connect(confirm, &QAction::toggled, this, [this](bool on) {
        settings_.setValue("actions/confirmRelease", on);
        inspector_->detail()->setConfirmRelease(on);
    });
    QAction* nonLocks = menu->addAction(tr("Show non-lock keys"));
    nonLocks->setCheckable(true);
    nonLocks->setChecked(settings_.value("inspector/showNonLockKeys", false).toBool());
    nonLocks->setToolTip(
        tr("List ordinary keys under the patterns too (they are not polled "
           "as locks otherwise)"));
    connect(nonLocks, &QAction::toggled, this, [this](bool on) {
        settings_.setValue("inspector/showNonLockKeys", on);
        applyWatchOptions();
    });
    menu->addAction(tr("Warn when a lock is renewed for longer than…"), this, [this] {
        bool ok = false;
        int minutes = QInputDialog::getInt(
            this, tr("Renewed for too long"),
            tr("A holder renewing its lock for longer than this many minutes gets a "
               "'held-too-long' warning (renewing past the TTL alone is information):"),
            heldTooLongMinutes(), 1, 7 * 24 * 60, 5, &ok);
        if (!ok) return;
        settings_.setValue("doctor/heldTooLongMinutes", minutes);
        applyWatchOptions();
        statusBar()->showMessage(tr("Renewal warning after %1 min").arg(minutes), 6000);
    });
}

}  // namespace lockscope::ui
