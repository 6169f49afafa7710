#pragma once
// The open connections: one ConnectionWorker on its own QThread per profile. The hub
// starts and stops them, forwards their signals, and routes actions to the right worker.

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

    void open(const ConnectionProfile& profile, const inspect::WatchOptions& options = {});
    void close(const QString& profileId);
    // Opens an open session again with new watch options, and new patterns when given
    // (same profile otherwise, and the password it was opened with).
    void reopen(const QString& profileId, const inspect::WatchOptions& options,
                const QStringList& patterns = {});
    void closeAll();
    bool isOpen(const QString& profileId) const { return sessions_.contains(profileId); }
    // The name of an open session's connection (a cluster's primaries have their own).
    QString nameOf(const QString& profileId) const {
        return sessions_.contains(profileId) ? sessions_[profileId].profile.name : profileId;
    }

    // An open session's profile (a cluster member's too), null when not open.
    const ConnectionProfile* profile(const QString& profileId) const {
        auto it = sessions_.find(profileId);
        return it != sessions_.end() ? &it->profile : nullptr;
    }
    // The profile whose worker reports under this instance name (Endpoint::display()).
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
    // The connection profileId reached a node of a Redis Cluster: its nodes, one line each
    // (the hub has opened a worker for each other primary, under the same connection).
    void clusterNodesFound(const QString& profileId, const QStringList& nodeLines);
    // A cluster slot moved between two watched primaries: its rows move from `from` to `to`
    // (records as read there, their history kept); gone: released while they moved.
    // ConnectionWorker::failoverSeen: the primary behind a Sentinel connection changed.
    void failoverSeen(const QString& instance, const QString& from, const QString& to, qint64 atMs);
    void locksMoved(const QString& from, const QString& to,
                    const QVector<lockscope::inspect::LockRecord>& records,
                    const QStringList& gone);

  private:
    void openClusterMembers(const QString& profileId, const QStringList& otherPrimaries,
                            const QStringList& tlsNames);
    void handSlotOver(const QString& clusterId, const QString& from, const QString& to, int slot,
                      const QVector<inspect::LockRecord>& records);
    // A slot given to a primary no worker watches yet (a scale-out's new primary): its rows
    // wait at the giving node for that worker, which the topology refresh opens.
    void giveUpWaitingSlot(const QString& to, const QString& from, int slot);
    // By the new owner's instance; handed to its worker before its thread starts.
    QHash<QString, QVector<ConnectionWorker::GivenSlot>> waitingSlots_;

    struct Session {
        ConnectionProfile profile;
        QThread* thread = nullptr;
        ConnectionWorker* worker = nullptr;
        inspect::WatchOptions options;
    };
    // Stops a session's worker; returns what its watch knew.
    inspect::WatchMemory stop(Session s);
    std::shared_ptr<inspect::AuditLog> audit_;
    QHash<QString, Session> sessions_;  // by profile id
};

}  // namespace lockscope::ui
