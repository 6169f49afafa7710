#pragma once
// What the connection workers reported and the lock table has not shown yet, per instance,
// handed out a slice at a time (see LockRowFeed::applyPending). Batches are kept as
// the workers sent them, shared and never copied or moved: a rescan of a million keys
// delivers tens of thousands of records per batch, and appending each batch to one vector
// (then removing each applied slice from its front) copied every record again and again on
// the GUI thread.

#include <QHash>
#include <QString>
#include <QStringList>
#include <QVector>
#include <deque>
#include <span>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::ui {

class PendingLockUpdates {
  public:
    struct Slice {
        QString instance;
        QVector<inspect::SharedLockRecord> batch;  // keeps `records` alive
        std::span<const inspect::SharedLockRecord> records;
        QStringList removed;
    };

    void add(const QString& instance, const QVector<inspect::SharedLockRecord>& changed,
             const QStringList& removed);
    // Everything still pending for one instance: its server restarted or its tab closed.
    void drop(const QString& instance) { queues_.remove(instance); }
    QStringList takeRemovals(const QString& instance);
    // Drops the updates still pending for these keys of one instance, without removing them:
    // they moved to another instance (a cluster slot moved), whose update says the rest.
    void forgetKeys(const QString& instance, const QStringList& keys) {
        if (auto it = queues_.find(instance); it != queues_.end()) forget(*it, keys);
    }
    bool isEmpty() const { return queues_.isEmpty(); }
    // Records not yet handed out, over every instance.
    qsizetype waitingRecords() const;
    // Up to `atMost` records of one instance, with the removals pending for it.
    Slice take(qsizetype atMost);

  private:
    struct Queue {
        std::deque<QVector<inspect::SharedLockRecord>> batches;
        qsizetype applied = 0;  // of batches.front()
        qsizetype waiting = 0;
        QStringList removed;
    };
    static void forget(Queue& queue, const QStringList& keys);

    QHash<QString, Queue> queues_;
};

}  // namespace lockscope::ui
