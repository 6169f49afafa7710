#include "widgets/main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QFile>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QVBoxLayout>

#include "lockscope/inspect/audit_log.h"
#include "models/command_log_model.h"
#include "session/connection_hub.h"
#include "session/password_vault.h"
#include "session/profile_store.h"
#include "session/sandbox_session.h"
#include "teaching/replay_panel.h"
#include "widgets/connection_dialog.h"
#include "widgets/connection_sidebar.h"
#include "widgets/lock_inspector_view.h"

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
    tabs_->addTab(new ReplayPanel, QIcon(QStringLiteral(":/icons/play.svg")), tr("Teaching"));
    mainSplit_ = new QSplitter(Qt::Horizontal);
    mainSplit_->addWidget(sidebar_);
    mainSplit_->addWidget(tabs_);
    mainSplit_->setStretchFactor(1, 1);
    mainSplit_->setSizes({240, 1000});
    setCentralWidget(mainSplit_);

    buildActions();
    buildDocks();

    connect(sidebar_, &ConnectionSidebar::addRequested, this, &MainWindow::addConnection);
    connect(sidebar_, &ConnectionSidebar::editRequested, this, &MainWindow::editConnection);
    connect(sidebar_, &ConnectionSidebar::removeRequested, this, &MainWindow::removeConnection);
    connect(sidebar_, &ConnectionSidebar::toggleRequested, this, &MainWindow::connectProfile);
    connect(sidebar_, &ConnectionSidebar::sandboxRequested, this, &MainWindow::startSandbox);
    connect(hub_, &ConnectionHub::stateChanged, this, &MainWindow::onStateChanged);
    connect(hub_, &ConnectionHub::commandsLogged, commandLog_, &CommandLogModel::append);
    connect(hub_, &ConnectionHub::actionFinished, this, &MainWindow::appendAuditTail);
    connect(inspector_, &LockInspectorView::statusMessage, statusBar(), &QStatusBar::showMessage);
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
    for (const auto& p : options_.extra) {
        sidebar_->addProfile(p);
        connectProfile(p.id);
    }
    if (!sidebar_->profiles().isEmpty()) showInspector();
    restoreState();
    if (!auditError.isEmpty())
        statusBar()->showMessage(tr("Audit log unavailable: %1").arg(auditError));
    if (options_.startSandbox) startSandbox();
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
    bar->addSeparator();
    bar->addAction(
        add("refresh", tr("Refresh"), QKeySequence(Qt::Key_F5), [this] { hub_->refreshAll(); }));
    add("refresh", tr("Focus filter"), QKeySequence::Find, [this] { inspector_->focusFilter(); });
    bar->addSeparator();
    bar->addAction(add("release", tr("Release"), QKeySequence(Qt::Key_Delete),
                       [this] { inspector_->releaseSelected(); }));
    bar->addAction(add("add-ttl", tr("Add TTL"), QKeySequence(Qt::CTRL | Qt::Key_T),
                       [this] { inspector_->addTtlToSelected(); }));
    bar->addAction(add("force-delete", tr("Force delete"), QKeySequence(Qt::SHIFT | Qt::Key_Delete),
                       [this] { inspector_->forceDeleteSelected(); }));
    bar->addAction(add("copy", tr("Copy token"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
                       [this] { inspector_->copySelectedToken(); }));
    bar->addSeparator();
    bar->addAction(add("lockscope", tr("About"), QKeySequence(), [this] { showAbout(); }));
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
    commands->setWidget(commandLogView_);
    addDockWidget(Qt::BottomDockWidgetArea, commands);

    auditView_ = new QPlainTextEdit;
    auditView_->setReadOnly(true);
    auditView_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    auditView_->setPlaceholderText(
        tr("Manual actions (release, add TTL, force delete) appear here as they are "
           "written to the audit log: %1")
            .arg(auditPath_));
    auto* audit = new QDockWidget(tr("Audit log"), this);
    audit->setObjectName(QStringLiteral("auditLogDock"));
    audit->setWidget(auditView_);
    addDockWidget(Qt::BottomDockWidgetArea, audit);
    tabifyDockWidget(commands, audit);
    commands->raise();
    QAction* toggle = commands->toggleViewAction();
    toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    toggle->setIcon(QIcon(QStringLiteral(":/icons/log.svg")));
    addAction(toggle);
    commands->hide();
    audit->hide();
    QFile file(auditPath_);
    auditOffset_ = file.exists() ? file.size() : 0;  // show this session's actions
}

void MainWindow::restoreState() {
    restoreGeometry(settings_.value("window/geometry").toByteArray());
    QMainWindow::restoreState(settings_.value("window/state").toByteArray());
    mainSplit_->restoreState(settings_.value("window/mainSplit").toByteArray());
    inspector_->splitter()->restoreState(settings_.value("window/inspectorSplit").toByteArray());
    if (!settings_.contains("window/geometry")) resize(1280, 800);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    settings_.setValue("window/geometry", saveGeometry());
    settings_.setValue("window/state", saveState());
    settings_.setValue("window/mainSplit", mainSplit_->saveState());
    settings_.setValue("window/inspectorSplit", inspector_->splitter()->saveState());
    hub_->closeAll();
    QMainWindow::closeEvent(event);
}

void MainWindow::addTab(QWidget* page, const QIcon& icon, const QString& title) {
    tabs_->addTab(page, icon, title);
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
    if (dialog.exec() != QDialog::Accepted) return;
    ConnectionProfile p = dialog.profile();
    p.needsPassword = !p.endpoint.password.empty() || current->needsPassword;
    if (!p.endpoint.password.empty() && dialog.rememberPassword())
        vault_->store(p.id, QString::fromStdString(p.endpoint.password),
                      [](bool, const QString&) {});
    sidebar_->updateProfile(p);
    saveProfiles();
    if (hub_->isOpen(id)) openWithPassword(p);
}

void MainWindow::removeConnection(const QString& id) {
    hub_->close(id);
    vault_->forget(id);
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

void MainWindow::openWithPassword(const ConnectionProfile& profile) {
    hub_->open(profile);
}

void MainWindow::onStateChanged(const QString& id, ConnectionState state, const QString& message) {
    sidebar_->setState(id, state, message);
    const ConnectionProfile* p = sidebar_->profile(id);
    QString name = p ? p->name : id;
    if (state == ConnectionState::Failed || state == ConnectionState::Reconnecting)
        statusBar()->showMessage(tr("%1: %2").arg(name, message));
    else if (state == ConnectionState::Connected)
        statusBar()->showMessage(tr("%1: %2").arg(name, message), 5000);
}

void MainWindow::appendAuditTail() {
    QFile file(auditPath_);
    if (!file.open(QIODevice::ReadOnly)) return;
    file.seek(auditOffset_);
    QByteArray fresh = file.readAll();
    auditOffset_ += fresh.size();
    for (const QByteArray& line : fresh.split('\n'))
        if (!line.trimmed().isEmpty()) auditView_->appendPlainText(QString::fromUtf8(line));
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
