#pragma once
// One connection's worker: lives on its own QThread, owns the lib Connection, watches the
// locks (LockWatch), runs the operator's safe actions, and sends value-type results to the
// GUI through queued signals. The GUI thread never talks to Redis.
//
// Steps are scheduled with a single-shot timer re-armed only after a step finishes, so
// polls can never pile up behind a slow server (RESP.app's databaseitem pattern). A lost
// connection is retried with exponential backoff and watching resumes.

#include <QMutex>
#include <QObject>
#include <QTimer>
#include <QVector>
#include <atomic>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <stop_token>
#include <utility>

#include "lockscope/connection.h"
#include "lockscope/inspect/cluster_router.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/lock_watch.h"
#include "lockscope/inspect/safe_actions.h"
#include "models/command_log_entry.h"
#include "session/connection_profile.h"
#include "session/lock_action.h"
#include "session/sentinel_follower.h"

namespace lockscope::inspect {
class AuditLog;
}

namespace lockscope::ui {

enum class ConnectionState { Connecting, Connected, Reconnecting, Failed, Stopped };
QString toString(ConnectionState state);

class ConnectionWorker : public QObject {
    Q_OBJECT
  public:
    // memory: what a previous worker of the same server knew (an edited connection keeps
    // its history: first seen, renewals, handoffs).
    ConnectionWorker(ConnectionProfile profile, std::shared_ptr<inspect::AuditLog> audit,
                     inspect::WatchOptions options = {}, inspect::WatchMemory memory = {});
    // After stop(), on the worker's thread: what the watch knew, for a successor.
    inspect::WatchMemory takeMemory() { return std::exchange(memory_, {}); }
    ~ConnectionWorker() override;

    // Thread-safe: interrupts a scan in progress (the next rescan starts over).
    void cancelScan();
    // Thread-safe: the keys of this connection the view shows now and the selected one; the
    // watch reads them every interval and the rest within the load budget.
    void setFocus(std::vector<std::string> keys);
    // Thread-safe: the worker of another primary of this connection's cluster lost its node.
    // The topology is asked again at the next step, and every second for a while, so the
    // failover that may follow is seen (this worker's own connection may be fine).
    void noteClusterNodeLost() { clusterNodeLost_.store(true); }
    // Thread-safe: another primary's worker saw a slot move (MOVED): the topology is asked
    // again at the next step, so the sidebar and the Node column show the new slot ranges.
    void noteClusterRedirect() { clusterRedirect_.store(true); }
    // Slots given to this worker's node before it opened (a scale-out's new primary): set
    // before its thread starts, so the start orders them for the worker thread; adopted then.
    struct GivenSlot {
        QString from;
        int slot = -1;
        QVector<inspect::LockRecord> records;
    };
    void adoptWhenStarted(QVector<GivenSlot> given) { givenBeforeStart_ = std::move(given); }

  public slots:
    void start();               // connect and begin watching (on the worker thread)
    void refresh();             // rescan now
    void refreshAtFullSpeed();  // rescan now, ignoring the scan pace ("scan now at full speed")
    void stop();
    // Safe actions; the result arrives as actionFinished.
    void act(lockscope::ui::LockAction action, const QString& key,
             const lockscope::inspect::LockRecord& seen, qint64 ttlMs, bool confirmed);
    // On a cluster: another primary's worker gave up a slot this node serves now (slotGiven);
    // its locks are read here at once and keep their history. Emits locksMoved.
    void adoptSlot(const QString& from, int slot,
                   const QVector<lockscope::inspect::LockRecord>& records);

  signals:
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
    // Every second: what watching costs this server now (commands/s, share of one core).
    void loadMeasured(const QString& instance, double commandsPerSecond, double serverShare,
                      double budget);
    // The server is a node of a Redis Cluster (asked once, at the first connect): its nodes
    // for the sidebar, and "host:port" of each primary this connection does not reach.
    // tlsNames: for each of otherPrimaries, ClusterMembers::otherPrimaryTlsNames.
    void clusterFound(const QString& instance, const QStringList& nodeLines,
                      const QStringList& otherPrimaries, const QStringList& tlsNames);
    void actionFinished(const QString& instance, const QString& key, const QString& action, bool ok,
                        int outcome, const QString& message);
    // A slot of this node moved to the node `to` (a read answered MOVED): its locks, with
    // their history, for the worker watching `to` (the hub hands them over: adoptSlot).
    void slotGiven(const QString& from, const QString& to, int slot,
                   const QVector<lockscope::inspect::LockRecord>& records);
    // The locks of a slot moved from the node `from` to this one: the rows move (records as
    // read here, history kept); gone: released while they moved.
    // Behind Sentinel: the service's primary changed (a failover), at atMs (wall clock, ms
    // since the epoch). The rows stay, with their history: the instance is the service's.
    void failoverSeen(const QString& instance, const QString& from, const QString& to, qint64 atMs);
    void locksMoved(const QString& from, const QString& to,
                    const QVector<lockscope::inspect::LockRecord>& records,
                    const QStringList& gone);

  private:
    QVector<GivenSlot> givenBeforeStart_;
    // Emits locksChanged, handing the records over to the receiving thread so that
    // ThreadSanitizer sees the order Qt's queue gives them (see tsan_handover.h).
    void emitLocksChanged(const std::vector<lockscope::inspect::LockRecord>& changed,
                          const QStringList& removed, bool rescanned);
    void step();
    void idle();  // between steps: follow keyspace notifications, in short slices
    void connectNow();
    // The server to connect to: the profile's, or behind Sentinel the primary the Sentinels
    // name now (a different one than last time is a failover: noted, and failoverSeen).
    Endpoint serverNow();
    void noteFailover(const std::string& from, const std::string& to);
    // With scanReplica, behind Sentinel or on a cluster: opens replicaConnection_ to an
    // online replica for the watch (false: the primary is read). The choice is noted in the
    // command log when it changes (replica_to_watch.h).
    bool openReplicaToWatch();
    // A new watch on replicaConnection_ if open, else on connection_, with memory_.
    void watchNow();
    // With scanReplica, a watch reading the primary because no replica answered looks for
    // one again every kReplicaRetry, and moves there when one answers.
    void retryReplica();
    void scheduleNext(int ms);
    void setState(ConnectionState state, const QString& message);
    void flushCommandLog();
    std::stop_token beginScan();
    void dropConnection();  // keeps what the watch knew for the next connection
    void logNote(const QString& note);
    void noteFailure(const QString& note);  // logNote, unless the last failure said the same
    void askAboutCluster();
    void followCluster();  // a topology change: noted in the command log, members updated
    void logClusterEvents();
    // A read of this watch answered MOVED or ASK (WatchOptions::handOffRedirects): the
    // slot's locks go to the new owner's worker in the same round (slotGiven).
    void handOffRedirected(inspect::WatchUpdate& update);
    // The command log hears the commands sent on this connection (the watch's or an action's).
    void observe(Connection& connection);
    // The router an action goes through on a cluster (null on a plain server): the
    // connection's own (cluster_), or for another primary's worker one seeded at its node.
    inspect::ClusterRouter* actionRouter();

    ConnectionProfile profile_;
    QString instance_;
    std::shared_ptr<inspect::AuditLog> audit_;
    inspect::WatchOptions options_;
    std::unique_ptr<Connection> connection_;
    // With scanReplica: what the watch reads (connection_ is the primary, for actions).
    // Declared after connection_ and before watch_: the watch goes first.
    std::unique_ptr<Connection> replicaConnection_;
    QString replicaNote_;
    std::chrono::steady_clock::time_point replicaRetryAt_{};
    std::unique_ptr<inspect::LockWatch> watch_;
    // The lost connection's locks and run_id: the next watch reconciles the view with them.
    inspect::WatchMemory memory_;
    QTimer* stepTimer_ = nullptr;
    QTimer* logTimer_ = nullptr;
    int backoffMs_ = 0;
    QString lastFailure_;  // the failure noted last in the command log, until connected again
    std::chrono::steady_clock::time_point nextStepAt_{};
    ConnectionState state_ = ConnectionState::Stopped;
    bool stopped_ = false;
    bool clusterAsked_ = false;
    // A connection to a cluster node: follows the topology (failovers, slot moves), asked
    // again only for a reason (an error of this worker or a lost node of another) or every
    // 30 s (lib's TopologyRefreshPolicy).
    std::unique_ptr<inspect::ClusterRouter> cluster_;
    std::size_t clusterEventsSeen_ = 0;
    QStringList clusterPrimaries_;
    // Another primary's worker: routes its actions to the key's slot owner (a slot moved by an
    // operator or a failover since the row was read). Made at the first action.
    std::unique_ptr<inspect::ClusterRouter> memberRouter_;
    // Behind Sentinel: the service's primary and its failovers (made at the first connect).
    std::unique_ptr<SentinelFollower> sentinel_;
    std::atomic<bool> clusterNodeLost_{false};  // set by the GUI thread (the hub)
    std::atomic<bool> clusterRedirect_{false};  // likewise
    QStringList clusterNodeLines_;
    // The current scan's stop source. cancelScan() runs on the GUI thread while step()
    // replaces the source for each new scan on this one, so both go through the mutex: a
    // scan holds its own token, and a cancel reaches whichever scan is current.
    QMutex scanStopMutex_;
    std::stop_source scanStop_;
    // Commands sent since the last flush, as the connection reported them: only the newest
    // kMaxLogEntriesPerFlush are kept, and they become CommandLogEntry (QStrings) at the
    // flush, so a million-key scan does not convert a million commands it then drops.
    struct SentCommand {
        CommandEvent event;
        qint64 atMs = 0;  // wall clock, ms since the epoch
    };
    QMutex logMutex_;
    std::deque<SentCommand> pendingLog_;
    QMutex focusMutex_;
    std::optional<std::vector<std::string>> pendingFocus_;  // set by the GUI thread
    std::vector<std::string> appliedFocus_;  // the focus the watch has (worker thread)
    int logTicks_ = 0;
    void applyFocus();
    void reportLoad();
};

}  // namespace lockscope::ui

Q_DECLARE_METATYPE(lockscope::inspect::LockRecord)
Q_DECLARE_METATYPE(lockscope::inspect::SharedLockRecord)
Q_DECLARE_METATYPE(lockscope::ui::ConnectionState)
Q_DECLARE_METATYPE(lockscope::ui::CommandLogEntry)
Q_DECLARE_METATYPE(lockscope::ui::LockAction)
