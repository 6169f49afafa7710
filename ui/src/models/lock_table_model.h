#pragma once
// The live lock table: one row per (instance, key), fed with value-type snapshots from the
// connection workers. The remaining TTL is not stored but interpolated from the observed
// PTTL and a steady clock at paint time, so rows count down smoothly between polls; a
// single coalesced tick repaints only the moving columns.
//
// The model sorts itself (sort()), and LockFilterProxy forwards sorting to it and only
// filters: a sorting proxy announces each scattered run of inserted rows separately, and
// with a million rows every announcement costs the view O(n). Here an update of any size
// is at most one contiguous insert, one layout change and one contiguous removal.

#include <QAbstractTableModel>
#include <QHash>
#include <QSet>
#include <QTimer>
#include <QVector>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <span>
#include <string>

#include "lockscope/inspect/lock_record.h"
#include "models/lock_row_index.h"
#include "models/lock_row_order.h"
#include "models/row_key.h"
#include "models/row_scope.h"

namespace lockscope::ui {

class LockTableModel : public QAbstractTableModel {
    Q_OBJECT
  public:
    enum Column {
        Instance,
        Key,
        Resource,
        Kind,
        Holder,
        Remaining,
        Fence,
        SeenFor,  // how long LockScope has seen the current holder: not the lock's age
        Age,      // the lock's age from the best evidence (lock_age.h), saying which
        Renewals,
        Findings,
        // A cluster node's role and slots ("primary · 0-5460"); last, so header layouts saved
        // before it existed still fit the columns before it.
        Node,
        // Is the holder alive? (issue 31): alive, gone (an orphan) or unknown, from the
        // engine's liveness reader; after Node for the same reason. Shown beside Holder.
        Alive,
        ColumnCount
    };
    enum Role {
        RemainingMsRole = Qt::UserRole + 1,  // qint64, -1 without TTL
        TtlFractionRole,                     // double 0..1: remaining / largest PTTL seen
        HighlightRole,                       // double 0..1: fades after a handoff or an expiry
        FindingsRole,                        // QStringList of rule ids
        FullTokenRole,                       // the whole holder token (or fields)
        RowKeyRole,                          // RowKey: stable identity of the row
        AgeSourceRole,                       // QString: the evidence of the Age column
        StaleRole,                           // bool: its connection is down, the row may be gone
        OrphanRole,                          // bool: the holder is gone (liveness verdict)
    };
    using Clock = std::chrono::steady_clock;
    using Record = lockscope::inspect::LockRecord;
    using SharedRecord = lockscope::inspect::SharedLockRecord;

    explicit LockTableModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Adds or updates these records of one instance. complete: the batch is the whole set
    // for that instance, so rows of it that are missing have expired or been deleted.
    // The rows keep the records themselves (a watcher's table shares them: one copy of each
    // lock in the window, issue 18).
    void apply(const QString& instance, std::span<const SharedRecord> records, bool complete);
    // apply() of copies of these records.
    void apply(const QString& instance, std::span<const Record> records, bool complete);
    void apply(const QString& instance, const QVector<Record>& records, bool complete) {
        apply(instance, std::span(records.constData(), std::size_t(records.size())), complete);
    }
    void removeInstance(const QString& instance);
    // Removes every row of the instance but keeps it known (its server restarted empty):
    // one model reset when it had all the rows, no lookup per key.
    void removeRowsOf(const QString& instance);
    // While an instance's connection is down its rows are stale: greyed, "last seen N s ago"
    // instead of a countdown. Cleared when the connection is back (a rescan then reconciles).
    void setInstanceStale(const QString& instance, bool stale);
    bool isStale(const Record& record) const;
    // The Instance column shows the connection's name; the URL is its tooltip.
    void setInstanceName(const QString& instance, const QString& name);
    // The connection (its id) and group the instance belongs to, for a RowScope. Its rows are
    // announced as changed when that changes, so a scoped proxy shows or hides them.
    void setInstanceScope(const QString& instance, const QString& connectionId,
                          const QString& group);
    bool rowInScope(int row, const RowScope& scope) const;
    // The Node column: what the instance is in its cluster ("primary · 0-5460").
    void setNodeDescription(const QString& instance, const QString& description);
    bool hasNodeDescriptions() const { return !nodeDescriptions_.empty(); }
    QString nodeDescription(const QString& instance) const {
        const auto it = nodeDescriptions_.find(instance.toStdString());
        return it == nodeDescriptions_.end() ? QString() : it->second;
    }
    // Whether the instance is a node of a Redis Cluster (it has a node description).
    bool isClusterNode(const QString& instance) const {
        return nodeDescriptions_.find(instance.toStdString()) != nodeDescriptions_.end();
    }
    void removeKey(const QString& instance, const QString& key);
    // While the order is held the rows stay, greyed, until it is released (setOrderHeld);
    // evenWhileHeld: now (keys that moved to another node, shown there already).
    void removeKeys(const QString& instance, const QStringList& keys, bool evenWhileHeld = false);
    // Makes room for this many rows now, while growing is cheap, rather than at each
    // doubling of a million-row table (a scan in progress knows roughly how many come).
    void reserve(int rows);
    // reserve() with the row index's slots made ready on another thread (see LockRowIndex).
    void reserve(int rows, LockRowIndex::Storage indexSlots);
    // Orders the rows by a column (-1: arrival order) and keeps them so as they change.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return sortColumn_; }
    // While held, no row moves: rows whose sort key changed (a renewal) stay where they are,
    // new rows wait at the end, and rows that vanish (a short-lived lock released) stay,
    // greyed and stale, so a click lands on the row under the pointer. The pending order and
    // removals are applied when released; a vanished key that comes back meanwhile is its
    // row again.
    void setOrderHeld(bool held);
    bool orderHeld() const { return orderHeld_; }
    // Whether the row's instance (its URL or its connection's name), key, resource, kind,
    // holder or a finding id contains the text, ignoring ASCII case (text already lower-cased,
    // UTF-8).
    bool rowMatches(int row, const std::string& lowerText) const;

    const Record* recordAt(int row) const;
    int instanceCount() const { return int(instances_.size()); }
    QStringList instanceNames() const { return {instances_.begin(), instances_.end()}; }
    // How many rows each instance has (the sidebar's lock counts), kept as rows come and go:
    // counting them on each refresh of the sidebar was a fifth of the GUI thread's time with
    // 400,000 rows of 20 connections (issue 36).
    QHash<QString, int> rowCountsByInstance() const;
    // Every record whose resource is this one, on any instance (a Redlock's N keys).
    std::vector<Record> recordsOfResource(std::string_view resource) const;
    int rowOf(const QString& instance, const QString& key) const;
    static RowKey rowKey(const QString& instance, const QString& key) { return {instance, key}; }

    // Time source, replaceable so tests can move time forward deterministically.
    void setClock(std::function<Clock::time_point()> now) { now_ = std::move(now); }
    // Wall clock for ages read from tokens (uuid1, ShedLock), replaceable likewise.
    void setWallClock(std::function<std::chrono::system_clock::time_point()> now) {
        wallNow_ = std::move(now);
    }
    // How long rows whose sort key changed may wait for their new place: each re-sort costs
    // a view O(rows), so a large table gathers them (0, the default: placed within apply()).
    void setResortDelay(std::chrono::milliseconds delay) {
        resortTimer_.setInterval(int(delay.count()));
    }
    // While paced, rows whose sort key changed wait for the caller's resortNow(): a view
    // applying a large backlog in slices re-sorts between slices, never in the same turn of
    // the event loop as one (each is tens of milliseconds at a million rows).
    void setResortPaced(bool paced);
    bool resortWaiting() const { return !unsorted_.empty() && !orderHeld_ && sortColumn_ >= 0; }
    void resortNow();
    // Repaint interval of the moving columns (countdown, held for, highlight).
    void setTickInterval(std::chrono::milliseconds interval) {
        ticker_.setInterval(int(interval.count()));
    }

    // Human formats shared with the detail pane: "12.3 s", "4 min 10 s", "no TTL".
    static QString formatDuration(std::int64_t ms);

  signals:
    // A row's holder changed (handoff) or a row vanished (expired or deleted).
    void handoff(const QString& instance, const QString& key);
    void vanished(const QString& instance, const QString& key);
    // The moving columns (countdown, held for, highlight) changed: repaint visible rows.
    void countdownTick();

  private:
    // The row's identity (instance, key) is its record's: no copy of either per row.
    struct Row {
        SharedRecord record;           // never null in a row in use
        std::int64_t largestPttl = 0;  // scale of the TTL bar
        Clock::time_point highlightedAt{};
        bool goneWhileHeld = false;  // vanished while the order was held: removed on release
    };
    const Row& rowAt(int position) const { return slots_[std::size_t(order_.idAt(position))]; }
    static void freeOffThisThread(std::deque<Row> rows);
    void tick();
    int allocate(Row row);
    void appendNewRows(const QString& instance, std::span<const SharedRecord> records,
                       const std::vector<std::size_t>& added, std::vector<int>& moved);
    void keepSorted(const std::vector<int>& moved);
    void removeIds(const std::vector<int>& ids);
    // removeIds(), or while the order is held, marks the rows gone (see setOrderHeld).
    void removeOrHold(const std::vector<int>& ids);
    void removeAll();
    bool vanishedIsConnected() const;
    int idOf(std::string_view instance, std::string_view key) const {
        return index_.find(instance, key);
    }
    std::vector<int> idsOfInstance(const std::string& instance) const;
    void countRowGone(const std::string& instance);
    void ownedBy(SharedRecord& record, const std::string& instance);
    void emitChanged(std::vector<int> positions);
    // Runs a reordering of order_ inside one layout change, carrying persistent indexes.
    void relayout(const std::function<void()>& reorder);
    bool less(int leftId, int rightId) const;
    QVariant display(const Row& row, int column) const;
    QString ageTooltip(const Record& r) const;

    // What ordering reads, by id beside the rows: a comparison touches 32 bytes, not two
    // rows hundreds of bytes apart.
    struct SortKey {
        std::int64_t value = 0;     // numericSortKey() of a numeric sort column
        std::uint64_t arrival = 0;  // orders rows that sort equal: first seen first
    };
    // By id; ids in freeSlots_ are unused. A deque: growing never moves the rows (a vector
    // of a million rows would copy them all at each doubling, a stall of a third of a second).
    std::deque<Row> slots_;
    std::vector<SortKey> keys_;
    std::vector<int> freeSlots_;
    LockRowOrder order_;
    LockRowIndex index_;  // (instance, key) -> id
    int sortColumn_ = -1;
    bool numericSort_ = false;
    std::uint64_t arrivals_ = 0;
    Qt::SortOrder sortOrder_ = Qt::AscendingOrder;
    QSet<QString> instances_;  // instances with rows or an applied snapshot
    // Instances whose connection is down, with when it went down. std::string keys: rows
    // carry their instance as one, and data() must not convert it for every painted cell.
    std::map<std::string, Clock::time_point, std::less<>> staleSince_;
    std::map<std::string, QString, std::less<>> instanceNames_;     // URL -> connection name
    std::map<std::string, std::string, std::less<>> lowerNames_;    // the same, for the filter
    std::map<std::string, QString, std::less<>> nodeDescriptions_;  // URL -> role and slots
    InstanceScopes scopes_;                                    // URL -> its connection and group
    std::map<std::string, int, std::less<>> rowsPerInstance_;  // URL -> rows in order_
    std::map<std::string, std::shared_ptr<const std::string>> instanceStrings_;
    QTimer ticker_;
    QTimer resortTimer_;
    std::vector<int> unsorted_;      // ids whose sort key changed since the last re-sort
    std::vector<int> heldRemovals_;  // ids of rows gone while the order was held
    bool orderHeld_ = false;
    bool resortPaced_ = false;
    std::function<Clock::time_point()> now_ = [] { return Clock::now(); };
    std::function<std::chrono::system_clock::time_point()> wallNow_ = [] {
        return std::chrono::system_clock::now();
    };
};

}  // namespace lockscope::ui
