#include "widgets/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
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
#include "models/command_log_model.h"
#include "session/connection_hub.h"
#include "session/password_vault.h"
#include "session/profile_store.h"
#include "session/sandbox_session.h"
#include "teaching/history_view.h"
#include "teaching/replay_panel.h"
#include "widgets/connection_secrets.h"
#include "widgets/connection_sidebar.h"
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
    connect(hub_, &ConnectionHub::reconnectingForEdit, this, &MainWindow::onReconnectingForEdit);
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
