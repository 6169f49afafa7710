#pragma once
// LockScope's window: the connection sidebar, the inspector and teaching tabs, the
// command log and audit log drawers, the toolbar and shortcuts, and the first-run offer
// to start the local sandbox. Geometry and splitter state are restored from QSettings.

#include <QHash>
#include <QMainWindow>
#include <memory>

#include "session/connection_profile.h"
#include "session/connection_worker.h"

class QAction;
class QLabel;
class QLineEdit;
class QSettings;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace lockscope::ui {

class ImportConnectionsDialog;

class AuditLogModel;
class DiscoverDialog;
class CommandLogModel;
class ConnectionHub;
class ConnectionSecrets;
class ConnectionSidebar;
class LoadIndicator;
class LockInspectorView;
class PasswordVault;
class ReplayPanel;
class SandboxSession;

struct MainWindowOptions {
    bool startSandbox = false;       // open connected to the embedded default
    QString auditLogPath;            // empty: AuditLog::defaultPath()
    QList<ConnectionProfile> extra;  // connections given on the command line (not saved)
    QStringList histories;           // torture histories to open (`lockscope HISTORY.json`)
};

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    QAction* releaseAction() const { return releaseAction_; }
    QAction* addTtlAction() const { return addTtlAction_; }
    QAction* forceDeleteAction() const { return forceDeleteAction_; }
    QAction* quitAction() const { return quitAction_; }  // File → Quit, Ctrl+Q

    explicit MainWindow(QSettings& settings, MainWindowOptions options = {},
                        QWidget* parent = nullptr);
    ~MainWindow() override;

    LockInspectorView* inspector() const { return inspector_; }
    ConnectionSidebar* sidebar() const { return sidebar_; }
    ConnectionHub* hub() const { return hub_; }
    QTabWidget* tabs() const { return tabs_; }
    SandboxSession* sandbox() const { return sandbox_; }
    CommandLogModel* commandLog() const { return commandLog_; }
    AuditLogModel* auditLog() const { return auditLog_; }
    QTableView* auditTable() const { return auditTable_; }
    QLineEdit* auditFilter() const { return auditFilter_; }
    ReplayPanel* teaching() const { return teaching_; }
    bool presenterMode() const { return presenter_; }

  public slots:
    void startSandbox();
    void connectProfile(const QString& id);
    void addConnection();
    void editConnection(const QString& id);
    void removeConnection(const QString& id);
    void duplicateConnection(const QString& id);
    // Opens the Discover dialog for a connection (default: the one chosen in the sidebar).
    DiscoverDialog* discoverLocks(const QString& profileId = {});
    void addPatterns(const QString& profileId, const QStringList& patterns);
    void connectSavedOnStart();
    void applyWatchOptions();
    void showAbout();
    // Opens a .lockscope scenario file on the Teaching tab (false: the panel says why).
    bool openScenario(const QString& path);
    // Presenter mode (F11): full screen, the Teaching tab alone, no sidebar, docks, menus or
    // tool bar; leaving it restores what was shown.
    void setPresenterMode(bool on);
    // Opens a torture history in a tab of its own, in the teaching lanes. false (and a
    // status-bar message saying why) when it is no history; nothing else changes then.
    bool openHistory(const QString& path);
    void chooseHistory();  // File → Open history…
    // File → Import connections…: reads the file (another tool's export or a URL list) and
    // opens the review dialog, or says in a message box why the file cannot be read. The
    // dialog (returned for tests) imports what is ticked when accepted.
    ImportConnectionsDialog* importConnectionsFrom(const QString& path);
    void chooseConnectionsToImport();
    // File → Export connections…: LockScope's own connections file, without any secret.
    bool exportConnectionsTo(const QString& path);
    void chooseExportFile();

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void importChosen(const ImportConnectionsDialog& dialog);
    void buildActions();
    void buildDocks();
    void restoreState();
    void saveProfiles();
    // Opens the connection once its other secrets are at hand (ConnectionSecrets: a TLS key
    // passphrase, the Sentinels' password), from the keychain, else asked for (mayAsk false
    // at start-up: then it waits for a connect).
    void openWithPassword(const ConnectionProfile& profile, bool mayAsk = true);
    void buildSettingsMenu();
    void updateLockActions();
    // The watch options the settings ask for (the renewal warning threshold).
    inspect::WatchOptions watchOptions() const;
    int heldTooLongMinutes() const;
    void onStateChanged(const QString& id, ConnectionState state, const QString& message);
    // An edit changed where a connection's watch connects: said until it is connected again.
    void onReconnectingForEdit(const QString& id, const QString& what);
    void onClusterHealth(const QString& id, const QString& downNodes,
                         const QString& slotsWithoutPrimary);
    void appendAuditTail();
    void showInspector();

    QSettings& settings_;
    MainWindowOptions options_;
    ConnectionHub* hub_;
    PasswordVault* vault_;
    ConnectionSecrets* secrets_;
    SandboxSession* sandbox_;
    ConnectionSidebar* sidebar_;
    QHash<QString, QString> editReconnects_;  // by connection id: what an edit changed
    QStackedWidget* center_;
    QTabWidget* tabs_;
    LockInspectorView* inspector_;
    QSplitter* mainSplit_;
    LoadIndicator* loadIndicator_ = nullptr;  // the status bar's load figures
    QAction* fullSpeedAction_ = nullptr;
    CommandLogModel* commandLog_;
    QTableView* commandLogView_;
    AuditLogModel* auditLog_ = nullptr;
    QTableView* auditTable_ = nullptr;
    QLineEdit* auditFilter_ = nullptr;
    QAction* releaseAction_ = nullptr;
    QAction* addTtlAction_ = nullptr;
    QAction* forceDeleteAction_ = nullptr;
    QAction* copyAction_ = nullptr;
    QAction* discoverAction_ = nullptr;
    QAction* quitAction_ = nullptr;
    QString auditPath_;
    ReplayPanel* teaching_ = nullptr;
    bool presenter_ = false;
    QList<QWidget*> hiddenByPresenter_;
    bool wasMaximized_ = false;
};

}  // namespace lockscope::ui
