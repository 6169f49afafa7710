#pragma once
// What the connection workers reported and the lock table has not shown yet, per instance,
// handed out a slice at a time (see LockRowFeed::applyPending), the instances in turn.
//
// Coalesced per row: a key waits once, with its latest record (the newest state of a row
// wins, in the place its first update took), and a removal cancels an update still waiting
// for that key. So what waits is bounded by the rows, not by the updates in flight: with 50
// connections the watches re-read faster than a busy window applied, and the batches kept as
// sent (every version of every row) grew to 24 GB (issue 36). The records are the workers'
// shared ones, never copied.

#include <QString>
#include <QStringList>
#include <QVector>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::ui {

class PendingLockUpdates {
  public:
    struct Slice {
        QString instance;
        std::vector<inspect::SharedLockRecord> records;
        QStringList removed;
    };

    void add(const QString& instance, const QVector<inspect::SharedLockRecord>& changed,
             const QStringList& removed);
    // Everything still pending for one instance: its server restarted or its tab closed.
    void drop(const QString& instance);
    QStringList takeRemovals(const QString& instance);
    // Drops the updates still pending for these keys of one instance, without removing them:
    // they moved to another instance (a cluster slot moved), whose update says the rest.
    void forgetKeys(const QString& instance, const QStringList& keys);
    bool isEmpty() const { return queues_.empty(); }
    // Rows with a record waiting, over every instance (each row once, however many updates).
    qsizetype waitingRecords() const;
    // What waits for one instance: its rows with a record and its keys to remove (each once).
    qsizetype waitingUnits(const QString& instance) const;
    // Up to `atMost` records of one instance, with the removals pending for it; the next
    // call serves the next instance, so a connection that keeps reporting starves no other.
    Slice take(qsizetype atMost);

  private:
    struct Queue {
        // Rows in the order of their first update; null: cancelled (removed or moved).
        std::deque<inspect::SharedLockRecord> order;
        std::uint64_t firstSeq = 0;  // sequence number of order.front()
        // Key (a view of the waiting record's own key) -> its sequence number in `order`.
        std::unordered_map<std::string_view, std::uint64_t> waiting;
        QStringList removed;
        std::unordered_set<std::string> removedKeys;
        bool removedStale = false;  // a key in `removed` came back: filter before handing out

        bool isEmpty() const { return waiting.empty() && removedKeys.empty(); }
        void put(const inspect::SharedLockRecord& record);
        void cancel(const std::string& key);
        void remove(const QString& key);
        QStringList takeRemoved();
        std::vector<inspect::SharedLockRecord> takeFront(qsizetype atMost);
    };

    std::map<QString, Queue> queues_;
    QString lastServed_;  // take() serves the instance after this one
};

}  // namespace lockscope::ui
