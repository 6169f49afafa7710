#pragma once
// The lock table's row pipeline: what the connection watches report (rows changed, removed,
// moved between cluster nodes, a server emptied) waits here and is applied to the
// LockTableModel a slice at a time on a timer, with each lock's history. The inspector view
// only connects the hub's signals to the slots below and follows the selection through the
// signals; nothing here knows about widgets or sessions.

#include <QElapsedTimer>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <QVector>
#include <map>
#include <span>

#include "lockscope/inspect/lock_record.h"
#include "models/lock_history.h"
#include "models/pending_lock_updates.h"

namespace lockscope::ui {

class LockTableModel;

class LockRowFeed : public QObject {
    Q_OBJECT
  public:
    // Feeds `model` (which it paces: re-sorts run in turns of their own, see applyPending).
    explicit LockRowFeed(LockTableModel& model, QObject* parent = nullptr);

    LockHistory& history() { return history_; }
    const LockHistory& history() const { return history_; }
    // Records reported and not yet in the model.
    qsizetype waitingRecords() const { return pending_.waitingRecords(); }
    bool isIdle() const { return pending_.isEmpty() && !coalesce_.isActive(); }

  public slots:
    // ConnectionHub::locksChanged: the worker's records, queued and shown within 100 ms while
    // a scan streams, at once otherwise.
    void onLocksChanged(const QString& instance, const QVector<inspect::SharedLockRecord>& changed,
                        const QStringList& removed, bool rescanned);
    // Every lock of the instance is gone (a restart with no persistence).
    void onServerEmptied(const QString& instance);
    // A cluster slot moved: its rows go from one node's instance to the other's, with their
    // history, in one turn (no frame without them, none shown twice).
    void onLocksMoved(const QString& from, const QString& to,
                      const QVector<inspect::LockRecord>& records, const QStringList& gone);
    // The instance's tab closed: its rows and whatever waits for it go.
    void onInstanceClosed(const QString& instance);
    // The instance answers again: the removals its rescan found go before anything else.
    void applyRemovalsNow(const QString& instance);
    void onScanStarted();
    // Sizes the tables early in a large scan for the rows it projects.
    void onScanProgress(double fraction, quint64 keysSeen);
    void onScanFinished(bool cancelled);

  signals:
    // Before keys of an instance leave the model (their history already says how they went).
    void rowsLeaving(const QString& instance, const QStringList& keys);
    // Before every row of an instance leaves the model (its server restarted empty).
    void instanceLeaving(const QString& instance);
    // Before keys move from one instance's rows to another's (their history moved already).
    void rowsMoving(const QString& from, const QString& to, const QStringList& keys);
    // After the model took an update: `changed` is valid only during the call.
    void rowsApplied(const QString& instance, std::span<const inspect::SharedLockRecord> changed,
                     const QStringList& removed);
    // Of what onLocksChanged received for the instance, `units` (as handoverRowUnits counts
    // them) wait no longer: applied to the model, replaced by a newer record of their row,
    // or dropped with the instance. The sender's credit returns here, not on receipt, so a
    // worker whose rows wait unapplied waits too (handover_credit.h).
    void taken(const QString& instance, qint64 units);

  private:
    void applyPending();
    void applyUpdate(const QString& instance, std::span<const inspect::SharedLockRecord> changed,
                     const QStringList& removed);
    void reserveOffThisThread(int rows);
    void reserveHistory();
    void releaseFreedMemoryWhenApplied();
    void releaseFreedMemory();
    void settle(const QString& instance);

    LockTableModel& model_;
    LockHistory history_;
    // Updates wait here up to 100 ms and are applied together: a scan streaming thousands
    // of batches costs the sorting proxy a few insertions, not one per batch.
    PendingLockUpdates pending_;
    QTimer coalesce_;
    QElapsedTimer sinceResort_;  // the last re-sort applyPending() ran
    int scansRunning_ = 0;
    int reserved_ = 0;                // rows the tables were last sized for
    std::size_t reservedTracks_ = 0;  // lock histories the history was last sized for
    bool trimWhenApplied_ = false;    // a scan finished: return freed memory once it is applied
    QElapsedTimer lastTrim_;
    // Per instance: units received and not yet said to be taken (see taken()).
    std::map<QString, qint64> held_;
};

}  // namespace lockscope::ui
