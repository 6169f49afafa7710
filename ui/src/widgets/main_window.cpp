#include "widgets/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <algorithm>

#include "lockscope/inspect/audit_log.h"
#include "models/audit_log_model.h"
#include "models/command_log_model.h"
#include "session/connection_hub.h"
#include "session/password_vault.h"
#include "session/profile_store.h"
#include "session/sandbox_session.h"
#include "teaching/history_view.h"
#include "teaching/replay_panel.h"
#include "widgets/connection_dialog.h"
#include "widgets/connection_secrets.h"
#include "widgets/connection_sidebar.h"
#include "widgets/discover_dialog.h"
#include "widgets/eliding_status_bar.h"
#include "widgets/load_indicator.h"
#include "widgets/lock_detail_pane.h"
#include "widgets/lock_inspector_view.h"
#include "widgets/sidebar_figures.h"

// Resources compiled into a static library are registered by hand (Qt docs, "Using
// Resources in a Library"); outside any namespace, as Q_INIT_RESOURCE requires.
static void initLockScopeResources() {
    Q_INIT_RESOURCE(resources);
}

namespace lockscope::ui {
namespace {

std::shared_ptr<inspect::AuditLog> openAuditLog(const QString& path, QString* error) {
    try {
        return std::make_shared<inspect::AuditLog>(path.isEmpty() ? inspect::AuditLog::defaultPath()
                                                                  : path.toStdString());
    } catch (const std::exception& e) {
        *error = QString::fromStdString(e.what());
        return nullptr;
    }
}

// The first-run page: no connection yet, so offer the sandbox and the dialog.
QWidget* welcomePage(QObject* receiver, const std::function<void()>& sandbox,
                     const std::function<void()>& add) {
    auto* page = new QWidget;
    auto* title = new QLabel(QObject::tr(
        "<h2>Welcome to LockScope</h2>"
        "<p>Find, explain and safely release Redis distributed locks.</p>"
        "<p>No connection yet. Start a private <code>redis-server</code> with live demo "
        "locks — a renewed job, a handoff, an orphan with no TTL and the broken fixed "
        "value \"1\" — or connect to your own server.</p>"));
    title->setWordWrap(true);
    title->setAlignment(Qt::AlignCenter);
    auto* start = new QPushButton(QIcon(QStringLiteral(":/icons/sandbox.svg")),
                                  QObject::tr("Start local sandbox"));
    start->setObjectName(QStringLiteral("welcomeSandbox"));
    start->setIconSize(QSize(24, 24));
    start->setMinimumHeight(40);
    auto* add_ = new QPushButton(QIcon(QStringLiteral(":/icons/add-connection.svg")),
                                 QObject::tr("Add connection…"));
    add_->setMinimumHeight(40);
    QObject::connect(start, &QPushButton::clicked, receiver, sandbox);
    QObject::connect(add_, &QPushButton::clicked, receiver, add);
    auto* layout = new QVBoxLayout(page);
    layout->addStretch();
    layout->addWidget(title);
    auto* row = new QHBoxLayout;
    row->addStretch();
    row->addWidget(start);
    row->addWidget(add_);
    row->addStretch();
    layout->addLayout(row);
    layout->addStretch(2);
    return page;
}

}  // namespace

MainWindow::MainWindow(QSettings& settings, MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent), settings_(settings), options_(std::move(options)) {
    initLockScopeResources();
    setWindowTitle(tr("LockScope"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/lockscope.svg")));
    QString auditError;
    auto audit = openAuditLog(options_.auditLogPath, &auditError);
    auditPath_ = audit ? QString::fromStdString(audit->path()) : QString();
    hub_ = new ConnectionHub(audit, this);
    vault_ = new PasswordVault(this);
    secrets_ = new ConnectionSecrets(*vault_, this);
    sandbox_ = new SandboxSession(this);
    sidebar_ = new ConnectionSidebar;
    inspector_ = new LockInspectorView(*hub_);
    // The Locks tab shows the welcome page until there is a connection; the Teaching tab
    // needs no server at all, so it is always there.
    center_ = new QStackedWidget;
    center_->addWidget(welcomePage(
        this, [this] { startSandbox(); }, [this] { addConnection(); }));
    center_->addWidget(inspector_);
    tabs_ = new QTabWidget;
    tabs_->setDocumentMode(true);
    tabs_->addTab(center_, QIcon(QStringLiteral(":/icons/doctor.svg")), tr("Locks"));
    teaching_ = new ReplayPanel;
    tabs_->addTab(teaching_, QIcon(QStringLiteral(":/icons/play.svg")), tr("Teaching"));
    // The connection sidebar serves the Locks tab only: the Teaching tab gets its width.
    connect(tabs_, &QTabWidget::currentChanged, this,
            [this](int index) { sidebar_->setVisible(!presenter_ && index == 0); });
    connect(teaching_, &ReplayPanel::presenterModeRequested, this, &MainWindow::setPresenterMode);
    // The tabs' own minimum is their widest page's, the teaching panel's (about 1,140 px): with
    // the sidebar beside it the window could not be 1280 px wide and squeezed the sidebar to
    // 150 px. The teaching tab hides the sidebar, so it still gets the whole width.
    tabs_->setMinimumWidth(480);
    mainSplit_ = new QSplitter(Qt::Horizontal);
    mainSplit_->addWidget(sidebar_);
    mainSplit_->addWidget(tabs_);
    mainSplit_->setStretchFactor(1, 1);
    mainSplit_->setSizes({240, 1000});
    setCentralWidget(mainSplit_);

    buildActions();
    buildDocks();
    buildSettingsMenu();

    connect(sidebar_, &ConnectionSidebar::addRequested, this, &MainWindow::addConnection);
    connect(sidebar_, &ConnectionSidebar::editRequested, this, &MainWindow::editConnection);
    connect(sidebar_, &ConnectionSidebar::removeRequested, this, &MainWindow::removeConnection);
    connect(sidebar_, &ConnectionSidebar::duplicateRequested, this,
            &MainWindow::duplicateConnection);
    connect(sidebar_, &ConnectionSidebar::toggleRequested, this, &MainWindow::connectProfile);
    connect(sidebar_, &ConnectionSidebar::sandboxRequested, this, &MainWindow::startSandbox);
    connect(sidebar_, &ConnectionSidebar::groupConnectRequested, this,
            [this](const QStringList& ids, bool open) {
                for (const QString& id : ids)
                    if (hub_->isOpen(id) != open) connectProfile(id);  // toggles
            });
    connect(hub_, &ConnectionHub::stateChanged, this, &MainWindow::onStateChanged);
    connect(hub_, &ConnectionHub::clusterNodesFound, sidebar_, &ConnectionSidebar::setClusterNodes);
    connect(hub_, &ConnectionHub::clusterHealthChanged, this, &MainWindow::onClusterHealth);
    new SidebarFigures(*hub_, *inspector_->model(), *sidebar_, this);
    connect(hub_, &ConnectionHub::commandsLogged, commandLog_, &CommandLogModel::append);
    connect(hub_, &ConnectionHub::actionFinished, this, &MainWindow::appendAuditTail);
    setStatusBar(new ElidingStatusBar(this));
    connect(secrets_, &ConnectionSecrets::notStored, this,
            [this](const QString& why) { statusBar()->showMessage(why, 8000); });
    connect(inspector_, &LockInspectorView::statusMessage, statusBar(), &QStatusBar::showMessage);
    loadIndicator_ = new LoadIndicator(*hub_);
    statusBar()->addPermanentWidget(loadIndicator_);
    connect(sandbox_, &SandboxSession::started, this, [this](const QString& url) {
        ConnectionProfile p = ConnectionProfile::create(tr("Local sandbox"), sandbox_->endpoint());
        p.isSandbox = true;
        sidebar_->addProfile(p);
        statusBar()->showMessage(
            tr("Sandbox redis-server started at %1 with the demo workload").arg(url), 8000);
        connectProfile(p.id);
    });
    connect(sandbox_, &SandboxSession::failed, this, [this](const QString& why) {
        QMessageBox::warning(this, tr("Sandbox"),
                             tr("The local sandbox could not start:\n%1").arg(why));
    });

    ProfileStore store(settings_);
    sidebar_->setProfiles(store.load());
    if (settings_.value("connections/connectOnStart", true).toBool()) connectSavedOnStart();
    for (const auto& p : options_.extra) {
        sidebar_->addProfile(p);
        connectProfile(p.id);
    }
    if (!sidebar_->profiles().isEmpty()) showInspector();
    restoreState();
    if (!auditError.isEmpty())
        statusBar()->showMessage(tr("Audit log unavailable: %1").arg(auditError));
    if (options_.startSandbox) startSandbox();
    for (const QString& history : options_.histories) openHistory(history);
    connect(tabs_, &QTabWidget::tabCloseRequested, this, [this](int index) {
        if (auto* history = qobject_cast<HistoryView*>(tabs_->widget(index))) {
            tabs_->removeTab(index);
            history->deleteLater();
        }
    });
}

MainWindow::~MainWindow() {
    hub_->closeAll();
}

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

void MainWindow::chooseHistory() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open a torture history"), QString(),
                                     tr("Torture histories (*.json *.jsonl);;All files (*)"));
    if (path.isEmpty() || openHistory(path)) return;
    QMessageBox::warning(this, tr("Open history"), statusBar()->currentMessage());
}

bool MainWindow::openHistory(const QString& path) {
    auto* view = new HistoryView;
    if (!view->load(path)) {
        statusBar()->showMessage(view->error(), 15000);
        delete view;
        return false;
    }
    // History tabs close; Locks and Teaching stay.
    int tab = tabs_->addTab(view, QIcon(QStringLiteral(":/icons/play.svg")),
                            tr("History: %1").arg(QFileInfo(path).fileName()));
    tabs_->setTabsClosable(true);
    for (int i = 0; i < 2; ++i) tabs_->tabBar()->setTabButton(i, QTabBar::RightSide, nullptr);
    tabs_->setCurrentIndex(tab);
    statusBar()->showMessage(tr("Opened %1").arg(path), 6000);
    return true;
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

void MainWindow::buildDocks() {
    commandLog_ = new CommandLogModel(this);
    commandLogView_ = new QTableView;
    commandLogView_->setModel(commandLog_);
    commandLogView_->verticalHeader()->hide();
    commandLogView_->horizontalHeader()->setStretchLastSection(false);
    commandLogView_->horizontalHeader()->setSectionResizeMode(CommandLogModel::Command,
                                                              QHeaderView::Stretch);
    commandLogView_->setColumnWidth(CommandLogModel::Time, 100);
    commandLogView_->setColumnWidth(CommandLogModel::Instance, 160);
    commandLogView_->setColumnWidth(CommandLogModel::Reply, 220);
    connect(commandLog_, &QAbstractItemModel::rowsInserted, commandLogView_,
            &QTableView::scrollToBottom);
    auto* commands = new QDockWidget(tr("Command log"), this);
    commands->setObjectName(QStringLiteral("commandLogDock"));
    // What the commands below cost the servers now, above them.
    auto* commandsPane = new QWidget;
    auto* commandsLayout = new QVBoxLayout(commandsPane);
    commandsLayout->setContentsMargins(0, 0, 0, 0);
    commandsLayout->setSpacing(2);
    commandsLayout->addWidget(new LoadIndicator(*hub_));
    commandsLayout->addWidget(commandLogView_, 1);
    commands->setWidget(commandsPane);
    addDockWidget(Qt::BottomDockWidgetArea, commands);

    // The audit log as a table with a filter (time, user, connection, key, action, result),
    // the whole file, not just this session's lines.
    auditLog_ = new AuditLogModel(this);
    auditLog_->setPath(auditPath_);
    auto* auditProxy = new QSortFilterProxyModel(this);
    auditProxy->setSourceModel(auditLog_);
    auditProxy->setFilterKeyColumn(-1);
    auditProxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    auditFilter_ = new QLineEdit;
    auditFilter_->setPlaceholderText(tr("Filter by time, user, connection, key, action or result"));
    auditFilter_->setClearButtonEnabled(true);
    connect(auditFilter_, &QLineEdit::textChanged, auditProxy,
            &QSortFilterProxyModel::setFilterFixedString);
    auditTable_ = new QTableView;
    auditTable_->setModel(auditProxy);
    auditTable_->verticalHeader()->hide();
    auditTable_->setSelectionBehavior(QAbstractItemView::SelectRows);
    auditTable_->horizontalHeader()->setSectionResizeMode(AuditLogModel::Key, QHeaderView::Stretch);
    auditTable_->setColumnWidth(AuditLogModel::Time, 150);
    auditTable_->setColumnWidth(AuditLogModel::Connection, 180);
    connect(auditLog_, &QAbstractItemModel::rowsInserted, auditTable_, &QTableView::scrollToBottom);
    auto* auditPage = new QWidget;
    auto* auditLayout = new QVBoxLayout(auditPage);
    auditLayout->setContentsMargins(2, 2, 2, 2);
    auditLayout->addWidget(auditFilter_);
    auditLayout->addWidget(auditTable_, 1);
    auto* path =
        new QLabel(tr("File: %1").arg(auditPath_.isEmpty() ? tr("unavailable") : auditPath_));
    path->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auditLayout->addWidget(path);
    auto* audit = new QDockWidget(tr("Audit log"), this);
    audit->setObjectName(QStringLiteral("auditLogDock"));
    audit->setWidget(auditPage);
    addDockWidget(Qt::BottomDockWidgetArea, audit);
    tabifyDockWidget(commands, audit);
    commands->raise();
    QAction* toggle = commands->toggleViewAction();
    toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    toggle->setIcon(QIcon(QStringLiteral(":/icons/log.svg")));
    addAction(toggle);
    QAction* auditToggle = audit->toggleViewAction();
    auditToggle->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    addAction(auditToggle);
    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(toggle);
    view->addAction(auditToggle);
    view->addSeparator();
    view->addAction(fullSpeedAction_);
    // A dock opened from hidden gets its minimum height, a strip showing two rows: give it
    // a usable third of the window instead.
    for (QDockWidget* dock : {commands, audit})
        connect(dock, &QDockWidget::visibilityChanged, this, [this, dock](bool visible) {
            if (!visible) return;
            // After the layout has placed it: before that its height means nothing.
            QTimer::singleShot(0, dock, [this, dock] {
                if (dock->isVisible() && dock->height() < height() / 4)
                    resizeDocks({dock}, {std::max(220, height() / 3)}, Qt::Vertical);
            });
        });
    commands->hide();
    audit->hide();
}

void MainWindow::restoreState() {
    restoreGeometry(settings_.value("window/geometry").toByteArray());
    QMainWindow::restoreState(settings_.value("window/state").toByteArray());
    mainSplit_->restoreState(settings_.value("window/mainSplit").toByteArray());
    inspector_->splitter()->restoreState(settings_.value("window/inspectorSplit").toByteArray());
    if (!settings_.contains("window/geometry")) resize(1280, 800);
    // Never taller or wider than the screen (a 1280×720 projector).
    if (const QScreen* screen = this->screen()) {
        const QRect room = screen->availableGeometry();
        if (width() > room.width() || height() > room.height())
            resize(std::min(width(), room.width()), std::min(height(), room.height()));
    }
    // The sidebar's first width, given the window's real one: sizes set while the window was
    // still small were scaled down with it, leaving the names and figures a 150-px column.
    // Once laid out (the next turn of the event loop), so the splitter knows its own width.
    if (!settings_.contains("window/mainSplit"))
        QTimer::singleShot(0, this, [this] {
            const int total = mainSplit_->width();
            const int side = std::clamp(total / 6, 200, 280);
            mainSplit_->setSizes({side, std::max(1, total - side)});
        });
}

bool MainWindow::openScenario(const QString& path) {
    tabs_->setCurrentWidget(teaching_);
    return teaching_->openScenario(path);
}

void MainWindow::setPresenterMode(bool on) {
    if (on == presenter_) return;
    presenter_ = on;
    if (on) {
        wasMaximized_ = isMaximized();
        tabs_->setCurrentWidget(teaching_);
        hiddenByPresenter_.clear();
        QList<QWidget*> chrome{sidebar_, menuBar(), statusBar(), tabs_->tabBar()};
        for (QDockWidget* dock : findChildren<QDockWidget*>()) chrome << dock;
        for (QToolBar* bar : findChildren<QToolBar*>()) chrome << bar;
        for (QWidget* w : chrome)
            if (w->isVisible()) {
                w->hide();
                hiddenByPresenter_ << w;
            }
        showFullScreen();
    } else {
        for (QWidget* w : std::as_const(hiddenByPresenter_)) w->show();
        hiddenByPresenter_.clear();
        sidebar_->setVisible(tabs_->currentIndex() == 0);
        wasMaximized_ ? showMaximized() : showNormal();
    }
    teaching_->setPresenterMode(on);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    settings_.setValue("window/geometry", saveGeometry());
    settings_.setValue("window/state", saveState());
    settings_.setValue("window/mainSplit", mainSplit_->saveState());
    settings_.setValue("window/inspectorSplit", inspector_->splitter()->saveState());
    hub_->closeAll();
    QMainWindow::closeEvent(event);
}

void MainWindow::showInspector() {
    center_->setCurrentWidget(inspector_);
    tabs_->setCurrentWidget(center_);
}

void MainWindow::startSandbox() {
    showInspector();
    if (sandbox_->isRunning()) return;
    statusBar()->showMessage(tr("Starting the local sandbox…"));
    sandbox_->start();
}

void MainWindow::saveProfiles() {
    ProfileStore store(settings_);
    store.save(sidebar_->profiles());
}

void MainWindow::addConnection() {
    ConnectionDialog dialog(this);
    dialog.setKnownGroups(knownGroups(sidebar_->profiles()));
    if (dialog.exec() != QDialog::Accepted) return;
    ConnectionProfile p = dialog.profile();
    QString password = QString::fromStdString(p.endpoint.password);
    p.needsPassword = !password.isEmpty();
    if (p.needsPassword && dialog.rememberPassword()) {
        vault_->store(p.id, password, [this](bool stored, const QString& why) {
            if (!stored)
                statusBar()->showMessage(
                    tr("Password not stored (no keychain: %1); it will be asked for at connect")
                        .arg(why),
                    8000);
        });
    }
    secrets_->keep(p, dialog.rememberPassword());
    sidebar_->addProfile(p);
    saveProfiles();
    showInspector();
    openWithPassword(p);  // this time with the password just typed
}

void MainWindow::editConnection(const QString& id) {
    const ConnectionProfile* current = sidebar_->profile(id);
    if (!current || current->isSandbox) return;
    ConnectionDialog dialog(this);
    dialog.setProfile(*current);
    dialog.setKnownGroups(knownGroups(sidebar_->profiles()));
    if (dialog.exec() != QDialog::Accepted) return;
    ConnectionProfile p = dialog.profile();
    p.needsPassword = !p.endpoint.password.empty() || current->needsPassword;
    p.needsKeyPassphrase = current->needsKeyPassphrase && !p.endpoint.tls.keyFile.empty();
    secrets_->keep(p, dialog.rememberPassword());
    if (!p.endpoint.password.empty() && dialog.rememberPassword())
        vault_->store(p.id, QString::fromStdString(p.endpoint.password),
                      [](bool, const QString&) {});
    sidebar_->updateProfile(p);
    saveProfiles();
    if (hub_->isOpen(id)) openWithPassword(p);
}

DiscoverDialog* MainWindow::discoverLocks(const QString& profileId) {
    // The connection chosen in the sidebar, else the first one.
    QString id = profileId.isEmpty() ? sidebar_->currentId() : profileId;
    if (id.isEmpty() && !sidebar_->profiles().isEmpty()) id = sidebar_->profiles().first().id;
    const ConnectionProfile* p = sidebar_->profile(id);
    if (!p) {
        statusBar()->showMessage(tr("Discover needs a connection: add one first"), 6000);
        return nullptr;
    }
    auto* dialog = new DiscoverDialog(*p, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &DiscoverDialog::addPatterns, this, &MainWindow::addPatterns);
    dialog->show();
    dialog->start();
    return dialog;
}

void MainWindow::addPatterns(const QString& id, const QStringList& patterns) {
    const ConnectionProfile* current = sidebar_->profile(id);
    if (!current) return;
    ConnectionProfile p = *current;
    for (const QString& pattern : patterns)
        if (!p.patterns.contains(pattern)) p.patterns << pattern;
    sidebar_->updateProfile(p);
    if (!p.isSandbox) saveProfiles();
    // Reopened with the new patterns; the history of the locks it already watched stays.
    if (hub_->isOpen(id)) hub_->reopen(id, watchOptions(), p.patterns);
    statusBar()->showMessage(
        tr("%1 now watches %2").arg(p.name, p.patterns.join(QStringLiteral(", "))), 6000);
}

void MainWindow::reopenAll() {
    // New watch options take effect on a reopened watch, which keeps the locks' history.
    for (const ConnectionProfile& p : sidebar_->profiles())
        if (hub_->isOpen(p.id)) hub_->reopen(p.id, watchOptions());
}

void MainWindow::connectSavedOnStart() {
    // Saved connections reconnect as the window opens: those with no password or one in the
    // keychain. A password that must be typed is asked for only when the operator connects.
    for (const ConnectionProfile& p : sidebar_->profiles()) {
        if (hub_->isOpen(p.id)) continue;
        if (!p.needsPassword || !p.endpoint.password.empty()) {
            openWithPassword(p, false);
            continue;
        }
        vault_->load(p.id, [this, copy = p](std::optional<QString> stored) mutable {
            if (!stored || hub_->isOpen(copy.id)) return;
            copy.endpoint.password = stored->toStdString();
            openWithPassword(copy, false);
        });
    }
}

void MainWindow::duplicateConnection(const QString& id) {
    const ConnectionProfile* current = sidebar_->profile(id);
    if (!current || current->isSandbox) return;
    ConnectionProfile copy =
        ConnectionProfile::create(tr("%1 (copy)").arg(current->name), current->endpoint);
    const QString newId = copy.id;
    copy = *current;
    copy.id = newId;
    copy.name = tr("%1 (copy)").arg(current->name);
    copy.endpoint.password.clear();           // the stored password belongs to the original's id
    copy.endpoint.tls.keyPassphrase.clear();  // so does the key passphrase
    copy.sentinelPassword.clear();            // and the Sentinels' password, even in the URL
    copy.sentinelUrl = current->sentinelUrlToSave();
    sidebar_->addProfile(copy);
    saveProfiles();
}

void MainWindow::removeConnection(const QString& id) {
    hub_->close(id);
    vault_->forget(id);
    secrets_->forget(id);
    sidebar_->removeProfile(id);
    saveProfiles();
}

void MainWindow::connectProfile(const QString& id) {
    const ConnectionProfile* p = sidebar_->profile(id);
    if (!p) return;
    if (hub_->isOpen(id)) {
        hub_->close(id);
        return;
    }
    showInspector();
    if (!p->needsPassword || !p->endpoint.password.empty()) {
        openWithPassword(*p);
        return;
    }
    ConnectionProfile copy = *p;
    vault_->load(id, [this, copy](std::optional<QString> stored) mutable {
        if (!stored) {
            bool ok = false;
            QString typed = QInputDialog::getText(this, tr("Password"),
                                                  tr("Password for %1:").arg(copy.displayUrl()),
                                                  QLineEdit::Password, QString(), &ok);
            if (!ok) return;
            stored = typed;
        }
        copy.endpoint.password = stored->toStdString();
        openWithPassword(copy);
    });
}

void MainWindow::openWithPassword(const ConnectionProfile& profile, bool mayAsk) {
    secrets_->gather(profile, mayAsk,
                     [this](const ConnectionProfile& p) { hub_->open(p, watchOptions()); });
}

inspect::WatchOptions MainWindow::watchOptions() const {
    inspect::WatchOptions options;
    options.doctor.heldTooLong = std::chrono::minutes(heldTooLongMinutes());
    options.includeNonLocks = settings_.value("inspector/showNonLockKeys", false).toBool();
    return options;
}

int MainWindow::heldTooLongMinutes() const {
    return std::max(1, settings_.value("doctor/heldTooLongMinutes", 30).toInt());
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
        reopenAll();
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
        reopenAll();
        statusBar()->showMessage(tr("Renewal warning after %1 min").arg(minutes), 6000);
    });
}

void MainWindow::onStateChanged(const QString& id, ConnectionState state, const QString& message) {
    sidebar_->setState(id, state, message);
    const ConnectionProfile* p = sidebar_->profile(id);
    QString name = p ? p->name : hub_->nameOf(id);
    // A cluster down: its nodes' reconnect errors are symptoms; the status bar keeps saying
    // which node is down and which slots have no primary (issue 35).
    const QString down = sidebar_->clusterDownSaid(id);
    if (state == ConnectionState::Failed || state == ConnectionState::Reconnecting)
        statusBar()->showMessage(tr("%1: %2").arg(name, down.isEmpty() ? message : down));
    else if (state == ConnectionState::Connected)
        statusBar()->showMessage(tr("%1: %2").arg(name, message), 5000);
}

// Issue 35: a cluster that cannot serve says where (the nodes down) and why (the slots left
// without a primary), in the sidebar and in the status bar until it answers again.
void MainWindow::onClusterHealth(const QString& id, const QString& downNodes,
                                 const QString& slotsWithoutPrimary) {
    sidebar_->setClusterHealth(id, downNodes, slotsWithoutPrimary);
    const QString name = hub_->nameOf(id);
    if (downNodes.isEmpty()) {
        statusBar()->showMessage(tr("%1: every primary answers again").arg(name), 8000);
        return;
    }
    statusBar()->showMessage(
        tr("%1: cluster down — %2 not answering; slots without a primary: %3")
            .arg(name, downNodes,
                 slotsWithoutPrimary.isEmpty() ? tr("none") : slotsWithoutPrimary));
}

void MainWindow::appendAuditTail() {
    auditLog_->reload();
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About LockScope"),
        tr("<h3>LockScope %1</h3>"
           "<p>A lock inspector and teaching tool for Redis distributed locks.</p>"
           "<p>It finds every lock on your servers, counts their TTL down live, shows holders and "
           "fencing tokens, flags the guide's common mistakes and releases a lock only if it still "
           "holds the token you saw. Its teaching panel replays why SETNX + DEL breaks and how "
           "tokens, renewal, fencing and Redlock change the story.</p>"
           "<p>Built with Qt %2, hiredis and SQLite.</p>")
            .arg(QApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

}  // namespace lockscope::ui
