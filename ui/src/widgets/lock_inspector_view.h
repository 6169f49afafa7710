#pragma once
// The inspector tab: a filter box and scan progress over the live lock table, and the
// detail pane of the selected lock. Fed by the ConnectionHub; touches no Redis itself.

#include <QElapsedTimer>
#include <QRegion>
#include <QTimer>
#include <QWidget>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "lockscope/inspect/lock_record.h"
#include "models/row_key.h"
#include "models/row_scope.h"
#include "widgets/lock_inspector_view_progress.h"

class QLabel;
class QLineEdit;
class QProgressBar;
class QSplitter;
class QTableView;
class QToolButton;

namespace lockscope::ui {

class ConnectionHub;
class LockDetailPane;
class LockFilterProxy;
class LockRowFeed;
class LockScopeBox;
class LockTableColumns;
class LockTableModel;

class LockInspectorView : public QWidget {
    Q_OBJECT
  public:
    explicit LockInspectorView(ConnectionHub& hub, QWidget* parent = nullptr);

    LockTableModel* model() const { return model_; }
    LockFilterProxy* proxy() const { return proxy_; }
    LockRowFeed* feed() const { return feed_; }
    QTableView* table() const { return table_; }
    LockDetailPane* detail() const { return detail_; }
    QLineEdit* filter() const { return filter_; }
    QSplitter* splitter() const { return splitter_; }
    QProgressBar* progress() const { return progress_; }
    QLabel* severityLegend() const { return legend_; }
    QToolButton* orphansOnlyButton() const { return orphansOnly_; }
    LockScopeBox* scopeBox() const { return scope_; }
    LockTableColumns* columns() const { return columns_; }

  public slots:
    void focusFilter();
    void releaseSelected();
    void addTtlToSelected();
    void forceDeleteSelected();
    void copySelectedToken();
    void selectKey(const QString& instance, const QString& key);

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;

  signals:
    void statusMessage(const QString& message, int timeoutMs);

  private:
    void connectFeed();
    // The detail pane's actions to the hub, and their results back to it and the status bar.
    void connectActions();
    void onRowsLeaving(const QString& instance, const QStringList& keys);
    void onInstanceLeaving(const QString& instance);
    // Clears the selection of a lock that left, and follows its key should it come back.
    void letSelectedGo(const RowKey& selected);
    void onRowsMoving(const QString& from, const QString& to, const QStringList& keys);
    void onRowsApplied(const QString& instance, std::span<const inspect::SharedLockRecord> changed,
                       const QStringList& removed);
    void applyFilter(const QString& text);
    void applyScope(const RowScope& scope);
    // The Instance column's name for the instance and the connection and group it is in.
    void nameInstance(const QString& instance);
    void showCounts();
    void onSelectionChanged();
    // The countdown's tick: repaints only the cells that move (see the .cpp).
    void repaintMovingCells();
    // Tells each connection's watch the keys on screen and the selected one (its focus).
    void sendFocus();
    void updateOrderHold();
    // Instance and Node columns: shown with two connections or more (Node: on a cluster).
    void updateInstanceColumns();
    void showScanProgress();
    void showSelected();
    // Gives the detail pane its room when a lock is shown, and the table when none is.
    void fitDetail(bool lockShown);
    bool selectedIsReadOnly() const;
    RowKey selectedRowKey() const;

    ConnectionHub& hub_;
    LockTableModel* model_;
    LockFilterProxy* proxy_;
    LockRowFeed* feed_;  // hub signals → feed → model
    // Failovers behind Sentinel, by instance (wall-clock seconds): marked on the PTTL plot of
    // each of the instance's locks.
    std::map<QString, std::vector<double>> failovers_;
    QLineEdit* filter_;
    QProgressBar* progress_;
    QToolButton* cancel_;
    LockScopeBox* scope_;       // all connections, a group, or one connection
    int listedInstances_ = 0;   // instances the scope control listed last
    QToolButton* orphansOnly_;  // shows only the locks whose holder is gone
    QLabel* counts_;
    QLabel* legend_;
    QTableView* table_;
    // Its viewport, whose events are filtered: they still come while the table is destroyed,
    // when asking the half-destroyed table for its viewport is undefined.
    QObject* tableViewport_ = nullptr;
    LockTableColumns* columns_;  // order and widths, fitted to the table's width
    LockDetailPane* detail_;
    QSplitter* splitter_;
    int scansRunning_ = 0;
    ScanProgressTally scans_;  // each instance's scan (a cluster's primaries scan at once)
    bool detailOpen_ = true;   // the detail pane has the operator's split (a lock shown)
    QList<int> openSplit_;     // that split, kept while no lock is shown
    bool pointerOverTable_ = false;
    bool buttonDown_ = false;  // a mouse button pressed on the table and not yet released
    RowKey followKey_;         // the row of a selected lock that vanished: followed if it returns
    QElapsedTimer lastPress_;
    QTimer holdRelease_;
    QTimer focusTimer_;
    QRegion fading_;  // rows on screen that glowed at the last tick (a handoff fading out)
    std::map<QString, std::vector<std::string>> sentFocus_;  // by instance, as last sent
};

}  // namespace lockscope::ui
