#pragma once
// The open connections: one ConnectionWorker on its own QThread per profile (its watch engine
// watches every node of a cluster). The hub starts and stops them, forwards their signals,
// says each connection's state (the worst of its nodes'), and routes actions to the right
// worker.

#include <QHash>
#include <QObject>
#include <QThread>
#include <memory>

#include "session/connection_worker.h"

namespace lockscope::ui {

class ConnectionHub : public QObject {
    Q_OBJECT
  public:
    explicit ConnectionHub(std::shared_ptr<inspect::AuditLog> audit, QObject* parent = nullptr);
    ~ConnectionHub() override;

    // Opens a connection. An open one edited keeps its watch, its rows and their history when
    // the edit leaves where it connects alone (connection_hub_edit.h): the name, group,
    // patterns, budget and read-only apply to the running watch. Otherwise it reconnects
    // and says so (reconnectingForEdit).
    void open(const ConnectionProfile& profile, const inspect::WatchOptions& options = {});
    void close(const QString& profileId);
    // New patterns for an open session's running watch (same profile otherwise, and the
    // password it was opened with); the rows keep their history.
    void setPatterns(const QString& profileId, const QStringList& patterns);
    // New watch options (the Settings: ordinary keys shown, the held-too-long warning) for
    // every open session's running watch: the rows keep their history (issue 32).
    void setWatchOptions(const inspect::WatchOptions& options);
    void closeAll();
    bool isOpen(const QString& profileId) const { return sessions_.contains(profileId); }
    // The name of an open session's connection, or of a cluster node's ("orders · host:port").
    QString nameOf(const QString& profileId) const {
        const ConnectionProfile* p = profile(profileId);
        return p ? p->name : profileId;
    }

    // An open session's profile, or a cluster node's (id "<connection id>#host:port", clusterOf
    // the connection's id), null when not open.
    const ConnectionProfile* profile(const QString& profileId) const;
    // The profile whose worker reports under this instance name (Endpoint::display()): a
    // cluster node's is its own, as profile() gives it.
    const ConnectionProfile* profileForInstance(const QString& instance) const;
    void act(const QString& instance, LockAction action, const inspect::LockRecord& seen,
             qint64 ttlMs = 0, bool confirmed = false);
    void refreshAll();
    // "Scan now at full speed": every connection rescans without the scan pace.
    void refreshAllAtFullSpeed();
    // The keys of one instance the view shows now (and the selected one).
    void setFocus(const QString& instance, std::vector<std::string> keys);
    void cancelScans();
    inspect::AuditLog* audit() const { return audit_.get(); }
    // The receiver of locksChanged says when it is done with the rows (rowsTaken): the lock
    // table's feed, once it has applied them. Until this is called, rows count as taken when
    // received. See handover_credit.h.
    void takeRowsWhenReceiverSays() { rowsTakenByReceiver_ = true; }
    // The receiver is done with `units` (handoverRowUnits) of what locksChanged said for the
    // instance: its worker may send as many more.
    void rowsTaken(const QString& instance, qint64 units);

  signals:
    void stateChanged(const QString& profileId, lockscope::ui::ConnectionState state,
                      const QString& message);
    // The same state change, named by the instance its rows carry (Endpoint::display()).
    void instanceStateChanged(const QString& instance, lockscope::ui::ConnectionState state);
    void locksChanged(const QString& instance,
                      const QVector<lockscope::inspect::SharedLockRecord>& changed,
                      const QStringList& removed, bool rescanned);
    void instanceClosed(const QString& instance);
    void serverEmptied(const QString& instance);  // ConnectionWorker::serverEmptied
    void scanStarted(const QString& instance);
    void scanProgress(const QString& instance, double fraction, quint64 keysSeen);
    void scanFinished(const QString& instance, bool cancelled, const QStringList& notes);
    void commandsLogged(const QVector<lockscope::ui::CommandLogEntry>& entries);
    void loadMeasured(const QString& instance, double commandsPerSecond, double serverShare,
                      double budget);
    void actionFinished(const QString& instance, const QString& key, const QString& action, bool ok,
                        int outcome, const QString& message);
    // The connection profileId reached a node of a Redis Cluster: its nodes, one line each.
    void clusterNodesFound(const QString& profileId, const QStringList& nodeLines);
    // A cluster connection cannot serve some slots: which nodes do not answer and which slots
    // have no primary (both empty: every primary answers again).
    void clusterHealthChanged(const QString& profileId, const QString& downNodes,
                              const QString& slotsWithoutPrimary);
    // A cluster slot moved between two watched primaries: its rows move from `from` to `to`
    // (records as read there, their history kept); gone: released while they moved.
    // ConnectionWorker::failoverSeen: the primary behind a Sentinel connection changed.
    void failoverSeen(const QString& instance, const QString& from, const QString& to, qint64 atMs);
    void locksMoved(const QString& from, const QString& to,
                    const QVector<lockscope::inspect::LockRecord>& records,
                    const QStringList& gone);

    // An edit changed where an open connection's watch connects (`what`: "the address, TLS"):
    // it was closed and opens again, its rows read anew.
    void reconnectingForEdit(const QString& profileId, const QString& what);

  private:
    struct Session {
        ConnectionProfile profile;
        // The name the connection's rows carry: its URL, unless another open connection's
        // rows carry that already (same server, other patterns; see instanceFor).
        QString instance;
        QThread* thread = nullptr;
        ConnectionWorker* worker = nullptr;
        inspect::WatchOptions options;
        // A cluster's nodes by instance: a profile each, for the view's names and actions.
        QHash<QString, ConnectionProfile> nodes;
        // Each instance's last state and message: the connection's is the worst of them.
        QHash<QString, std::pair<ConnectionState, QString>> states;
    };
    void start(Session& s);
    void applyLiveEdit(Session& s, const ConnectionProfile& edited);
    void onWorkerState(const QString& id, const QString& instance, ConnectionState state,
                       const QString& message);
    void onClusterFound(const QString& id, const QStringList& nodeLines,
                        const QStringList& instances);
    const Session* sessionOfInstance(const QString& instance) const;
    QString instanceFor(const ConnectionProfile& profile) const;
    static void stop(Session& s);
    // The options a connection's watch runs with: its own CPU from the hub's shared budget.
    inspect::WatchOptions sharingCpu(inspect::WatchOptions options) const;

    std::shared_ptr<inspect::AuditLog> audit_;
    // Every connection's watches share one budget for their own CPU (the rotation and the
    // sweep): fifty connections each with 3% of a core made a window busier than the goal's
    // 15% of a core (issue 36).
    std::shared_ptr<inspect::SharedCpuBudget> watchersCpu_ =
        std::make_shared<inspect::SharedCpuBudget>(0.03);
    QHash<QString, Session> sessions_;  // by profile id
    bool rowsTakenByReceiver_ = false;
    // The credit of the worker that last sent rows for an instance (rowsTaken returns it).
    QHash<QString, std::weak_ptr<HandoverCredit>> creditOfInstance_;
};

}  // namespace lockscope::ui
