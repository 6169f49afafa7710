#pragma once
// One connection's worker: a thin QThread adapter over lib's watch engine (lockscope/inspect/
// server_watch.h). It lives on its own QThread, owns the connection's ServerWatch (every
// primary of a cluster or a replica of each, a Sentinel's primary and its failovers, replica
// choice and return, reconnect backoff, slot hand-off: all the engine's rules), turns its
// value-typed events into the queued signals the models and widgets consume, and runs the
// operator's safe actions on a connection to the key's slot owner. The GUI thread never talks
// to Redis.
//
// Rounds are scheduled with a single-shot timer re-armed only after a round finishes, so
// polls can never pile up behind a slow server (RESP.app's databaseitem pattern).

#include <QHash>
#include <QMutex>
#include <QObject>
#include <QSet>
#include <QTimer>
#include <QVector>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stop_token>
#include <utility>

#include "lockscope/connection.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/lock_watch.h"
#include "lockscope/inspect/safe_actions.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "models/command_log_entry.h"
#include "session/connection_profile.h"
#include "session/lock_action.h"
#include "support/call_inbox.h"
#include "support/handover_credit.h"

namespace lockscope::inspect {
class AuditLog;
}

namespace lockscope::ui {

enum class ConnectionState { Connecting, Connected, Reconnecting, Failed, Stopped };
QString toString(ConnectionState state);

class ConnectionWorker : public QObject {
    Q_OBJECT
  public:
    // `instance`: the name this connection's rows carry (a cluster's: each node's endpoint);
    // empty: the profile's URL (ConnectionProfile::displayUrl).
    ConnectionWorker(ConnectionProfile profile, std::shared_ptr<inspect::AuditLog> audit,
                     inspect::WatchOptions options = {}, const QString& instance = {});
    ~ConnectionWorker() override;

    // Thread-safe: interrupts a scan in progress (the next rescan starts over).
    void cancelScan();
    // What this worker sent and the GUI has not taken yet (see handover_credit.h): a receiver
    // of locksChanged releases rowUnits() of each batch from rowCredit(), and of
    // commandsLogged each batch's entries from logCredit(). The worker waits for room before
    // it sends rows (nothing is dropped) and keeps only the newest command log lines.
    // Rows (records and removed keys) sent and not yet taken (applied, in the window): 4,000 per
    // connection, and a scan's batches (about 1,000 records) still stream. A row in flight
    // often pins two records: a verdict or a change makes the watch's table replace a record
    // the view holds, and the view lets go of the old one only when it applies the new. At
    // 20,000 a connection, fifty connections' first verdicts doubled every record at once,
    // and the record pool keeps what it once held (gui_fleet_bench: 824 MB for 1M rows).
    static constexpr std::int64_t kRowsInFlight = 4'000;
    std::shared_ptr<HandoverCredit> rowCredit() const { return rowCredit_; }
    std::shared_ptr<HandoverCredit> logCredit() const { return logCredit_; }
    static std::int64_t rowUnits(const QVector<inspect::SharedLockRecord>& changed,
                                 const QStringList& removed) {
        return handoverRowUnits(changed.size(), removed.size());
    }
    // Thread-safe: the GUI stops taking what this worker sends (the connection closes), so
    // the worker no longer waits for it.
    void stopHandingOver();
    // Thread-safe: the keys of one of this connection's instances the view shows now and the
    // selected one; the engine reads them every interval and the rest within the load budget.
    void setFocus(const QString& instance, std::vector<std::string> keys);
    // Thread-safe: `call` runs on the worker's thread, after what was queued to it before.
    // Every call that carries data to the worker goes this way (call_inbox.h says why).
    void post(std::function<void()> call);

  public slots:
    void start();               // open the engine and begin watching (on the worker thread)
    void refresh();             // rescan every node now
    void refreshAtFullSpeed();  // rescan now, ignoring the scan pace ("scan now at full speed")
    void stop();
    // Every node's watch scans with these patterns from its next round (an edited connection);
    // a bad pattern changes nothing and is said in the command log.
    void setPatterns(const QStringList& patterns);
    // The load budget of every node's watch, at once (an edited connection); the rows stay.
    void setBudget(double share);
    // The Settings' watch options on every node's watch, at once; the rows keep their history.
    void setJudging(const lockscope::inspect::WatchJudging& judging);
    // Whether actions may write (an edited connection): the next action connects accordingly.
    void setReadOnly(bool readOnly);
    // Safe actions; the result arrives as actionFinished.
    void act(lockscope::ui::LockAction action, const QString& key,
             const lockscope::inspect::LockRecord& seen, qint64 ttlMs, bool confirmed);

  signals:
    // Per instance (a node of a cluster; the connection itself otherwise).
    void stateChanged(const QString& instance, lockscope::ui::ConnectionState state,
                      const QString& message);
    // changed: the watch's own records, shared (LockTable::share), not copies.
    void locksChanged(const QString& instance,
                      const QVector<lockscope::inspect::SharedLockRecord>& changed,
                      const QStringList& removed, bool rescanned);
    // A complete rescan found no lock (the server restarted empty): every row of the instance
    // is gone. Sent instead of the removed keys, so a view resets without a lookup per key.
    void serverEmptied(const QString& instance);
    void scanStarted(const QString& instance);
    void scanProgress(const QString& instance, double fraction, quint64 keysSeen);
    void scanFinished(const QString& instance, bool cancelled, const QStringList& notes);
    void commandsLogged(const QVector<lockscope::ui::CommandLogEntry>& entries);
    // Every second: what watching costs each node now (commands/s, share of one core).
    void loadMeasured(const QString& instance, double commandsPerSecond, double serverShare,
                      double budget);
    // The connection reaches a Redis Cluster: its nodes for the sidebar, one line each
    // ("127.0.0.1:7001 · primary · slots 0-5460 · online"), and the instances it watches.
    void clusterFound(const QStringList& nodeLines, const QStringList& instances);
    // The cluster cannot serve some slots: the nodes not answering and those slots ("" when
    // every primary answers again).
    void clusterHealth(const QString& downNodes, const QString& slotsWithoutPrimary);
    void actionFinished(const QString& instance, const QString& key, const QString& action, bool ok,
                        int outcome, const QString& message);
    // Another server is the primary now, at atMs (wall clock, ms since the epoch). Behind
    // Sentinel the instance is the service's and stays; on a cluster the rows of the shard
    // moved to the new primary's instance first (locksMoved).
    void failoverSeen(const QString& instance, const QString& from, const QString& to, qint64 atMs);
    // The locks of a slot moved from the node `from` to the node `to` (records as read there,
    // history kept); gone: released while they moved.
    void locksMoved(const QString& from, const QString& to,
                    const QVector<lockscope::inspect::LockRecord>& records,
                    const QStringList& gone);

  private:
    using Events = std::vector<inspect::WatchEvent>;
    void runPosted() { inbox_.runNext(); }
    void idle();  // the next round when due, else keyspace notifications in short slices
    void openEngine();
    void runRound();
    void scheduleNext(int ms);
    std::stop_token beginScan();
    void applyFocus();
    void reportLoad();
    void failConnection(const Error& e);
    bool answers(const QString& instance) const;

    // connection_worker_events.cpp: the engine's events as the window's signals.
    void deliver(Events events, bool cancelled = false);
    void deliverRows(const inspect::WatchEvent& e, inspect::WatchUpdate& rows);
    void deliverState(const inspect::WatchEvent& e);
    void deliverFailover(const inspect::WatchEvent& e);
    void deliverNote(const inspect::WatchEvent& e);
    // Keys one node's watch gave to another's in this round (a moved slot): one locksMoved
    // per pair of nodes, taken out of the taker's changed records.
    void deliverMoves(Events& events);
    void finishScans(bool cancelled);
    void emitLocksChanged(const QString& instance, const std::string& node,
                          const std::vector<inspect::LockRecord>& changed,
                          const QStringList& removed, bool rescanned);
    // The instance a node's rows carry: the connection's own behind Sentinel or on a single
    // server; on a cluster the node's current primary (Endpoint::display()).
    QString instanceOf(const std::string& node) const;
    const std::string* nodeOfInstance(const QString& instance) const;

    // connection_worker_cluster.cpp: the sidebar's node lines and the actions' router.
    // instancesChanged: sent even when the lines are the same (a node's rows moved).
    void describeCluster(bool instancesChanged);
    inspect::ClusterRouter* actionRouter();
    Connection& actionConnection();

    // connection_worker_log.cpp: the command log.
    void observe(Connection& connection);
    void logNote(const QString& note, const QString& instance = {});
    void noteFailure(const QString& note);  // logNote, unless the last failure said the same
    // While the GUI has not taken the last flush, the lines wait (the newest kept) unless
    // `evenIfBusy` (a note must follow the commands it explains).
    void flushCommandLog(bool evenIfBusy = false);

    CallInbox inbox_;  // post()'s calls; runPosted() runs the oldest
    std::shared_ptr<HandoverCredit> rowCredit_ = std::make_shared<HandoverCredit>(kRowsInFlight);
    // Command log lines: one flush (at most kMaxLogEntriesPerFlush lines) in flight.
    std::shared_ptr<HandoverCredit> logCredit_ = std::make_shared<HandoverCredit>(1);

    ConnectionProfile profile_;
    QString instance_;  // the connection's own name (Sentinel URL or endpoint, see the hub)
    std::shared_ptr<inspect::AuditLog> audit_;
    inspect::WatchOptions options_;
    std::unique_ptr<inspect::ServerWatch> engine_;
    bool opened_ = false;
    bool stopped_ = false;
    int openBackoffMs_ = 0;
    QString lastFailure_;
    QTimer* stepTimer_ = nullptr;
    QTimer* logTimer_ = nullptr;
    int logTicks_ = 0;
    // By engine node name: the instance its rows carry now (a cluster failover changes it).
    std::map<std::string, QString> instances_;
    QSet<QString> scanning_;  // instances whose rescan streams now
    // Actions: the primary (single server, Sentinel) or a router to a key's slot owner.
    std::unique_ptr<Connection> actionConnection_;
    std::unique_ptr<inspect::ClusterRouter> router_;
    std::size_t routerEventsSeen_ = 0;
    QStringList nodeLines_;
    // The current round's stop source; cancelScan() reaches it from the GUI thread.
    QMutex scanStopMutex_;
    std::stop_source scanStop_;
    // Commands sent since the last flush, as the connections reported them (newest kept).
    struct SentCommand {
        CommandEvent event;
        QString instance;
        qint64 atMs = 0;  // wall clock, ms since the epoch
    };
    QMutex logMutex_;
    std::deque<SentCommand> pendingLog_;
    QMutex focusMutex_;
    QHash<QString, std::vector<std::string>> pendingFocus_;  // set by the GUI thread
    bool focusChanged_ = false;
    std::vector<std::string> appliedFocus_;
};

}  // namespace lockscope::ui

Q_DECLARE_METATYPE(lockscope::inspect::LockRecord)
Q_DECLARE_METATYPE(lockscope::inspect::SharedLockRecord)
Q_DECLARE_METATYPE(lockscope::ui::ConnectionState)
Q_DECLARE_METATYPE(lockscope::ui::CommandLogEntry)
Q_DECLARE_METATYPE(lockscope::ui::LockAction)
