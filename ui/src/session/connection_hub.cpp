#include "session/connection_hub.h"

#include <QTimer>
#include <chrono>
#include <future>

#include "session/cluster_members.h"

#include "lockscope/inspect/audit_log.h"

namespace lockscope::ui {
namespace {

// How long a moved slot's rows wait for a worker to open for their new owner: the topology
// refresh that opens it comes within a second or two of the MOVED.
constexpr std::chrono::seconds kWaitForSlotOwner{10};

}  // namespace

ConnectionHub::ConnectionHub(std::shared_ptr<inspect::AuditLog> audit, QObject* parent)
    : QObject(parent), audit_(std::move(audit)) {
    qRegisterMetaType<lockscope::inspect::LockRecord>();
    qRegisterMetaType<QVector<lockscope::inspect::LockRecord>>();
    qRegisterMetaType<QVector<lockscope::inspect::SharedLockRecord>>();
    qRegisterMetaType<lockscope::ui::ConnectionState>();
    qRegisterMetaType<lockscope::ui::CommandLogEntry>();
    qRegisterMetaType<QVector<lockscope::ui::CommandLogEntry>>();
    qRegisterMetaType<lockscope::ui::LockAction>();
}

ConnectionHub::~ConnectionHub() {
    closeAll();
}

void ConnectionHub::open(const ConnectionProfile& profile, const inspect::WatchOptions& options) {
    // Reopening the same server (an edited connection) hands the old watch's history to the
    // new one, and its rows stay: "Seen for", renewals and handoffs are not reset.
    inspect::WatchMemory memory;
    const QString instance = profile.displayUrl();
    if (auto it = sessions_.find(profile.id); it != sessions_.end()) {
        Session old = *it;
        sessions_.erase(it);
        const QString oldInstance = old.profile.displayUrl();
        memory = stop(old);
        if (oldInstance != instance) {
            memory = {};
            emit instanceClosed(oldInstance);
        }
    }
    Session s{profile, new QThread(this),
              new ConnectionWorker(profile, audit_, options, std::move(memory)), options};
    s.thread->setObjectName(QStringLiteral("worker ") + profile.name);
    s.worker->moveToThread(s.thread);
    QString id = profile.id;
    connect(s.thread, &QThread::started, s.worker, &ConnectionWorker::start);
    connect(s.thread, &QThread::finished, s.worker, &QObject::deleteLater);
    connect(s.worker, &ConnectionWorker::stateChanged, this,
            [this, id, clusterOf = profile.clusterOf](
                const QString& instance, ConnectionState state, const QString& message) {
                emit stateChanged(id, state, message);
                emit instanceStateChanged(instance, state);
                // A cluster member lost its node: the connection that follows the cluster's
                // topology asks again now, not at its 30 s safety net (a failover is coming).
                if (state == ConnectionState::Reconnecting && !clusterOf.isEmpty())
                    if (auto parent = sessions_.find(clusterOf); parent != sessions_.end())
                        parent->worker->noteClusterNodeLost();
            });
    connect(s.worker, &ConnectionWorker::locksChanged, this, &ConnectionHub::locksChanged);
    connect(s.worker, &ConnectionWorker::serverEmptied, this, &ConnectionHub::serverEmptied);
    connect(s.worker, &ConnectionWorker::scanStarted, this, &ConnectionHub::scanStarted);
    connect(s.worker, &ConnectionWorker::scanProgress, this, &ConnectionHub::scanProgress);
    connect(s.worker, &ConnectionWorker::scanFinished, this, &ConnectionHub::scanFinished);
    connect(s.worker, &ConnectionWorker::commandsLogged, this, &ConnectionHub::commandsLogged);
    connect(s.worker, &ConnectionWorker::loadMeasured, this, &ConnectionHub::loadMeasured);
    connect(s.worker, &ConnectionWorker::actionFinished, this, &ConnectionHub::actionFinished);
    connect(s.worker, &ConnectionWorker::slotGiven, this,
            [this, clusterId = profile.clusterOf.isEmpty() ? id : profile.clusterOf](
                const QString& from, const QString& to, int slot,
                const QVector<inspect::LockRecord>& records) {
                handSlotOver(clusterId, from, to, slot, records);
            });
    connect(s.worker, &ConnectionWorker::locksMoved, this, &ConnectionHub::locksMoved);
    connect(s.worker, &ConnectionWorker::failoverSeen, this, &ConnectionHub::failoverSeen);
    connect(s.worker, &ConnectionWorker::clusterFound, this,
            [this, id](const QString&, const QStringList& nodeLines, const QStringList& others,
                       const QStringList& tlsNames) {
                openClusterMembers(id, others, tlsNames);
                emit clusterNodesFound(id, nodeLines);
            });
    // Rows of slots given to this node while no worker watched it: handed over before the
    // thread starts (a queued call's captures were a race ThreadSanitizer reported).
    s.worker->adoptWhenStarted(waitingSlots_.take(instance));
    sessions_.insert(id, s);
    s.thread->start();
}

// Each other primary of the cluster gets a worker of its own, named after the connection and
// the node; it is closed with the connection, or when its node is no longer a primary (after
// a failover the promoted replica gets one instead).
void ConnectionHub::openClusterMembers(const QString& profileId, const QStringList& otherPrimaries,
                                       const QStringList& tlsNames) {
    auto it = sessions_.find(profileId);
    if (it == sessions_.end()) return;
    const ConnectionProfile parent = it->profile;
    const inspect::WatchOptions options = it->options;
    const QString prefix = profileId + QStringLiteral("#");
    QStringList gone;
    for (const auto& s : sessions_)
        if (s.profile.clusterOf == profileId &&
            !otherPrimaries.contains(s.profile.id.mid(prefix.size())))
            gone << s.profile.id;
    for (const auto& id : gone) close(id);
    for (qsizetype i = 0; i < otherPrimaries.size(); ++i) {
        const QString& hostPort = otherPrimaries[i];
        if (sessions_.contains(prefix + hostPort)) continue;
        ConnectionProfile member = parent;
        member.id = prefix + hostPort;
        member.name = parent.name + QStringLiteral(" · ") + hostPort;
        // Reached through the address map: its certificate names the node, not the tunnel.
        member.endpoint = memberEndpoint(parent.endpoint, hostPort, tlsNames.value(i));
        // That name is this node's: the nodes its actions reach after a MOVED check theirs.
        member.clusterAddressing.serverNameForAll = parent.endpoint.tls.serverName;
        member.clusterOf = profileId;
        open(member, options);
    }
}

// A worker gave up a slot that moved to another primary: the worker watching that primary
// reads its locks now, with their history (the rows move there in the same round), and the
// connection's own worker asks the topology again for the new slot ranges.
void ConnectionHub::handSlotOver(const QString& clusterId, const QString& from, const QString& to,
                                 int slot, const QVector<inspect::LockRecord>& records) {
    if (auto parent = sessions_.find(clusterId); parent != sessions_.end())
        parent->worker->noteClusterRedirect();
    for (const Session& s : sessions_) {
        if (s.profile.displayUrl() != to) continue;
        QMetaObject::invokeMethod(
            s.worker, [w = s.worker, from, slot, records] { w->adoptSlot(from, slot, records); },
            Qt::QueuedConnection);
        return;
    }
    // A primary not watched yet: its worker opens when the refreshed topology names it, and
    // takes the rows then. Until then they stay where they were, not shown as released.
    waitingSlots_[to].append({from, slot, records});
    QTimer::singleShot(kWaitForSlotOwner, this,
                       [this, to, from, slot] { giveUpWaitingSlot(to, from, slot); });
}

// No worker came for the slot's new owner (its topology could not be read, or it is
// unreachable): the rows leave the node that no longer holds them, as a release would.
void ConnectionHub::giveUpWaitingSlot(const QString& to, const QString& from, int slot) {
    auto it = waitingSlots_.find(to);
    if (it == waitingSlots_.end()) return;
    for (qsizetype i = 0; i < it->size(); ++i) {
        const ConnectionWorker::GivenSlot& w = it->at(i);
        if (w.from != from || w.slot != slot) continue;
        QStringList keys;
        for (const auto& r : w.records) keys << QString::fromStdString(r.key);
        it->remove(i);
        if (it->isEmpty()) waitingSlots_.erase(it);
        emit locksChanged(from, {}, keys, false);
        return;
    }
}

void ConnectionHub::reopen(const QString& profileId, const inspect::WatchOptions& options,
                           const QStringList& patterns) {
    auto it = sessions_.find(profileId);
    if (it == sessions_.end()) return;
    ConnectionProfile profile = it->profile;
    if (!patterns.isEmpty()) profile.patterns = patterns;
    open(profile, options);
}

void ConnectionHub::close(const QString& profileId) {
    auto it = sessions_.find(profileId);
    if (it == sessions_.end()) return;
    Session s = *it;
    sessions_.erase(it);
    stop(s);
    emit instanceClosed(s.profile.displayUrl());
    QStringList members;  // a cluster's other primaries go with it
    for (const auto& m : sessions_)
        if (m.profile.clusterOf == profileId) members << m.profile.id;
    for (const auto& m : members) close(m);
}

inspect::WatchMemory ConnectionHub::stop(Session s) {
    s.worker->cancelScan();
    // On the worker's thread, while it is alive: it is deleted as its thread finishes. The
    // memory comes back through a std::promise rather than a blocking queued call: the same
    // wait, but ordered by the standard library's atomics, which ThreadSanitizer sees, not
    // by a semaphore inside Qt, which it does not (it reported every close as a race).
    std::promise<inspect::WatchMemory> taken;
    std::future<inspect::WatchMemory> memory = taken.get_future();
    QMetaObject::invokeMethod(
        s.worker,
        [&taken, w = s.worker] {
            w->stop();
            taken.set_value(w->takeMemory());
        },
        Qt::QueuedConnection);
    memory.wait();
    s.thread->quit();
    s.thread->wait();
    delete s.thread;
    return memory.get();
}

void ConnectionHub::closeAll() {
    const auto ids = sessions_.keys();
    for (const QString& id : ids) close(id);
}

const ConnectionProfile* ConnectionHub::profileForInstance(const QString& instance) const {
    for (const Session& s : sessions_)
        if (s.profile.displayUrl() == instance) return &s.profile;
    return nullptr;
}

void ConnectionHub::act(const QString& instance, LockAction action, const inspect::LockRecord& seen,
                        qint64 ttlMs, bool confirmed) {
    for (const Session& s : sessions_) {
        if (s.profile.displayUrl() != instance) continue;
        QString key = QString::fromStdString(seen.key);
        QMetaObject::invokeMethod(
            s.worker,
            [w = s.worker, action, key, seen, ttlMs, confirmed] {
                w->act(action, key, seen, ttlMs, confirmed);
            },
            Qt::QueuedConnection);
        return;
    }
}

void ConnectionHub::refreshAll() {
    for (const Session& s : sessions_)
        QMetaObject::invokeMethod(s.worker, &ConnectionWorker::refresh, Qt::QueuedConnection);
}

void ConnectionHub::refreshAllAtFullSpeed() {
    for (const auto& s : sessions_)
        QMetaObject::invokeMethod(s.worker, &ConnectionWorker::refreshAtFullSpeed,
                                  Qt::QueuedConnection);
}

void ConnectionHub::setFocus(const QString& instance, std::vector<std::string> keys) {
    for (const auto& s : sessions_)
        if (s.profile.displayUrl() == instance) {
            s.worker->setFocus(std::move(keys));  // thread-safe; applied at its next step
            return;
        }
}

void ConnectionHub::cancelScans() {
    for (const Session& s : sessions_) s.worker->cancelScan();
}

}  // namespace lockscope::ui
