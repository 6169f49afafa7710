#pragma once
// LockScope's window: the connection sidebar, the inspector and teaching tabs, the
// command log and audit log drawers, the toolbar and shortcuts, and the first-run offer
// to start the local sandbox. Geometry and splitter state are restored from QSettings.

#include <QMainWindow>
#include <memory>

#include "session/connection_profile.h"
#include "session/connection_worker.h"

class QAction;
class QLabel;
class QPlainTextEdit;
class QSettings;
class QSplitter;
class QStackedWidget;
class QTabWidget;
class QTableView;

namespace lockscope::ui {

class CommandLogModel;
class ConnectionHub;
class ConnectionSidebar;
class LockInspectorView;
class PasswordVault;
class SandboxSession;

struct MainWindowOptions {
    bool startSandbox = false;       // open connected to the embedded default
    QString auditLogPath;            // empty: AuditLog::defaultPath()
    QList<ConnectionProfile> extra;  // connections given on the command line (not saved)
};

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(QSettings& settings, MainWindowOptions options = {},
                        QWidget* parent = nullptr);
    ~MainWindow() override;

    LockInspectorView* inspector() const { return inspector_; }
    ConnectionSidebar* sidebar() const { return sidebar_; }
    ConnectionHub* hub() const { return hub_; }
    QTabWidget* tabs() const { return tabs_; }
    SandboxSession* sandbox() const { return sandbox_; }
    CommandLogModel* commandLog() const { return commandLog_; }
    QPlainTextEdit* auditView() const { return auditView_; }
    void addTab(QWidget* page, const QIcon& icon, const QString& title);

  public slots:
    void startSandbox();
    void connectProfile(const QString& id);
    void addConnection();
    void editConnection(const QString& id);
    void removeConnection(const QString& id);
    void showAbout();

  protected:
    void closeEvent(QCloseEvent* event) override;

  private:
    void buildActions();
    void buildDocks();
    void restoreState();
    void saveProfiles();
    void openWithPassword(const ConnectionProfile& profile);
    void onStateChanged(const QString& id, ConnectionState state, const QString& message);
    void appendAuditTail();
    void showInspector();

    QSettings& settings_;
    MainWindowOptions options_;
    ConnectionHub* hub_;
    PasswordVault* vault_;
    SandboxSession* sandbox_;
    ConnectionSidebar* sidebar_;
    QStackedWidget* center_;
    QTabWidget* tabs_;
    LockInspectorView* inspector_;
    QSplitter* mainSplit_;
    CommandLogModel* commandLog_;
    QTableView* commandLogView_;
    QPlainTextEdit* auditView_;
    QString auditPath_;
    qint64 auditOffset_ = 0;
};

}  // namespace lockscope::ui
