#pragma once
// The selected lock: its PTTL chart, the token history, the doctor findings with the
// guide's explanation and fix, and the operator's actions — Release (safe), Add TTL (for
// an orphan) and Force delete (type the key to confirm) — disabled with a reason on a
// read-only connection.

#include <QWidget>
#include <optional>

#include "lockscope/inspect/lock_record.h"
#include "models/lock_history.h"

class QLabel;
class QPushButton;
class QTableWidget;
class QTabWidget;
class QTextBrowser;

namespace lockscope::ui {

class PttlPlot;
class RedlockGroupPanel;

class LockDetailPane : public QWidget {
    Q_OBJECT
  public:
    explicit LockDetailPane(QWidget* parent = nullptr);

    // Shows a lock (nullopt: nothing selected). readOnly disables the actions, and so does
    // stale (its connection is down: the lock may be gone or have changed hands).
    void showLock(const std::optional<inspect::LockRecord>& record, const LockTrack* track,
                  bool readOnly, bool stale = false);
    // Refreshes chart and history of the lock shown (cheap; coalesced).
    void refreshTrack(const LockTrack* track);
    void showActionResult(bool ok, const QString& message);
    // The lock shown no longer exists: keep it on screen, marked gone, with no actions.
    void markVanished(const LockTrack* track);

    // Where the lock shown lives, named by the confirmations: the connection's name and, on a
    // cluster, the node's role and slots ("primary · 0-5460"; "" for a plain server).
    void setWhere(const QString& connectionName, const QString& nodeRole);
    // Release asks first (connection, node, key, holder, fence, TTL; Enter confirms) unless
    // turned off.
    void setConfirmRelease(bool confirm) { confirmRelease_ = confirm; }
    bool confirmsRelease() const { return confirmRelease_; }

    QPushButton* releaseButton() const { return release_; }
    QPushButton* addTtlButton() const { return addTtl_; }
    QPushButton* forceDeleteButton() const { return forceDelete_; }
    QLabel* resultLabel() const { return result_; }
    QLabel* summaryLabel() const { return summary_; }
    QLabel* titleLabel() const { return title_; }
    PttlPlot* plot() const { return plot_; }
    RedlockGroupPanel* group() const { return group_; }
    // "Redlock group", or "Digest" for a sidekiq-unique-jobs key; "" hides the tab (a lock
    // with no group).
    void setGroupTitle(const QString& title);
    QTabWidget* groupTabs() const { return groupTabs_; }
    const std::optional<inspect::LockRecord>& shown() const { return record_; }

    // Why an action button is off ("" when it is on): for the toolbar's tooltips.
    QString whyDisabled(const QPushButton* button) const;

  signals:
    // The actions' enablement changed (a lock was selected, went stale or vanished).
    void actionsChanged();
    void releaseRequested(const lockscope::inspect::LockRecord& seen);
    void addTtlRequested(const lockscope::inspect::LockRecord& seen, qint64 ttlMs);
    void forceDeleteRequested(const lockscope::inspect::LockRecord& seen);

  private:
    void fillHistory(const LockTrack* track);
    void askTtl();
    void confirmForceDelete();
    void confirmRelease();
    void updateSummary();
    // "Connection: …\nNode: …\n" for the confirmations.
    QString whereText(const inspect::LockRecord& seen) const;

    std::optional<inspect::LockRecord> record_;
    QLabel* title_;
    QLabel* summary_;
    PttlPlot* plot_;
    QTableWidget* history_;
    QTextBrowser* findings_;
    RedlockGroupPanel* group_;
    QTabWidget* groupTabs_ = nullptr;
    QWidget* split_ = nullptr;  // the chart beside the tabs: hidden with no lock selected
    QPushButton* release_;
    QPushButton* addTtl_;
    QPushButton* forceDelete_;
    QLabel* readOnlyNote_;
    QTextBrowser* liveness_;  // is the holder alive: the verdict and its evidence
    QLabel* result_;
    bool confirmRelease_ = true;
    QString connectionName_, nodeRole_;
    bool stale_ = false;
    bool vanished_ = false;
    QString whyOff_;  // why every action is off, when it is
};

}  // namespace lockscope::ui
