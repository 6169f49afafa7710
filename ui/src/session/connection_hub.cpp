#include "session/connection_hub.h"

#include <future>
#include <utility>

#include "lockscope/inspect/audit_log.h"
#include "session/cluster_members.h"
#include "session/connection_hub_edit.h"

namespace lockscope::ui {
namespace {

// "host:port" of an instance name (Endpoint::display(): "rediss://user@host:port/db").
QString hostPortOf(const QString& instance) {
    QString rest = instance.contains(QStringLiteral("//"))
                       ? instance.section(QStringLiteral("//"), 1)
                       : instance;
    return rest.section(QLatin1Char('@'), -1).section(QLatin1Char('/'), 0, 0);
}

// Worse first: the connection's state is its worst node's.
int severity(ConnectionState state) {
    switch (state) {
        case ConnectionState::Failed:
            return 4;
        case ConnectionState::Reconnecting:
            return 3;
        case ConnectionState::Connecting:
            return 2;
        case ConnectionState::Connected:
            return 1;
        case ConnectionState::Stopped:
            return 0;
    }
    return 0;
}

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

inspect::WatchOptions ConnectionHub::sharingCpu(inspect::WatchOptions options) const {
    if (!options.sharedClientBudget) options.sharedClientBudget = watchersCpu_;
    return options;
}

void ConnectionHub::open(const ConnectionProfile& profile, const inspect::WatchOptions& given) {
    const inspect::WatchOptions options = sharingCpu(given);
    if (auto it = sessions_.find(profile.id); it != sessions_.end()) {
        const QString reconnectFor = watchTargetChange(it->profile, profile);
        if (reconnectFor.isEmpty()) {
            applyLiveEdit(*it, profile);
            return;
        }
        close(profile.id);  // another server, or the same one reached another way
        emit reconnectingForEdit(profile.id, reconnectFor);
    }
    const QString instance = instanceFor(profile);
    Session s{profile,
              instance,
              new QThread(this),
              new ConnectionWorker(profile, audit_, options, instance),
              options,
              {},
              {}};
    start(s);
    sessions_.insert(profile.id, s);
    s.thread->start();
}

void ConnectionHub::applyLiveEdit(Session& s, const ConnectionProfile& edited) {
    const ConnectionProfile before = std::exchange(s.profile, edited);
    for (auto& node : s.nodes) {
        node.name = edited.name + QStringLiteral(" · ") + hostPortOf(node.displayUrl());
        node.group = edited.group;
        node.patterns = edited.patterns;
        node.readOnly = edited.readOnly;
        node.maxLoad = edited.maxLoad;
    }
    ConnectionWorker* w = s.worker;
    // An edit of the patterns reaches every node's watch at once (issue 35); so do the budget
    // and read-only (issue 32). The rows and their history stay.
    if (before.patterns != edited.patterns)
        w->post([w, p = edited.patterns] { w->setPatterns(p); });
    if (before.maxLoad != edited.maxLoad)
        w->post([w, share = edited.maxLoad] { w->setBudget(share); });
    if (before.readOnly != edited.readOnly)
        w->post([w, on = edited.readOnly] { w->setReadOnly(on); });
    // Said again under the new name: the sidebar and the view's Instance column.
    const auto states = s.states;  // a copy: onWorkerState writes it
    for (auto st = states.cbegin(); st != states.cend(); ++st)
        onWorkerState(edited.id, st.key(), st->first, st->second);
}

void ConnectionHub::start(Session& s) {
    s.thread->setObjectName(QStringLiteral("worker ") + s.profile.name);
    s.worker->moveToThread(s.thread);
    const QString id = s.profile.id;
    connect(s.thread, &QThread::started, s.worker, &ConnectionWorker::start);
    connect(s.thread, &QThread::finished, s.worker, &QObject::deleteLater);
    connect(s.worker, &ConnectionWorker::stateChanged, this,
            [this, id](const QString& instance, ConnectionState state, const QString& message) {
                onWorkerState(id, instance, state, message);
            });
    // Taken off Qt's queue: the worker may send more once the receiver is done with the rows
    // (see ConnectionWorker::rowCredit), at once unless the receiver says when.
    connect(s.worker, &ConnectionWorker::locksChanged, this,
            [this, credit = s.worker->rowCredit()](
                const QString& instance, const QVector<inspect::SharedLockRecord>& changed,
                const QStringList& removed, bool rescanned) {
                // A closed connection's last batches never stand for its successor's.
                if (rowsTakenByReceiver_) {
                    if (!credit->isClosed()) creditOfInstance_[instance] = credit;
                } else {
                    credit->release(ConnectionWorker::rowUnits(changed, removed));
                }
                emit locksChanged(instance, changed, removed, rescanned);
            });
    connect(s.worker, &ConnectionWorker::serverEmptied, this, &ConnectionHub::serverEmptied);
    connect(s.worker, &ConnectionWorker::scanStarted, this, &ConnectionHub::scanStarted);
    connect(s.worker, &ConnectionWorker::scanProgress, this, &ConnectionHub::scanProgress);
    connect(s.worker, &ConnectionWorker::scanFinished, this, &ConnectionHub::scanFinished);
    connect(s.worker, &ConnectionWorker::commandsLogged, this,
            [this, credit = s.worker->logCredit()](const QVector<CommandLogEntry>& entries) {
                credit->release(1);
                emit commandsLogged(entries);
            });
    connect(s.worker, &ConnectionWorker::loadMeasured, this, &ConnectionHub::loadMeasured);
    connect(s.worker, &ConnectionWorker::actionFinished, this, &ConnectionHub::actionFinished);
    connect(s.worker, &ConnectionWorker::locksMoved, this, &ConnectionHub::locksMoved);
    connect(s.worker, &ConnectionWorker::failoverSeen, this, &ConnectionHub::failoverSeen);
    connect(s.worker, &ConnectionWorker::clusterFound, this,
            [this, id](const QStringList& nodeLines, const QStringList& instances) {
                onClusterFound(id, nodeLines, instances);
            });
    connect(s.worker, &ConnectionWorker::clusterHealth, this,
            [this, id](const QString& down, const QString& orphaned) {
                emit clusterHealthChanged(id, down, orphaned);
            });
}

// Each node of a cluster gets a profile of its own, named after the connection and the node,
// so the view names its rows and the detail pane says which connection they belong to.
void ConnectionHub::onClusterFound(const QString& id, const QStringList& nodeLines,
                                   const QStringList& instances) {
    auto it = sessions_.find(id);
    if (it == sessions_.end()) return;
    const ConnectionProfile& parent = it->profile;
    for (const QString& instance : instances) {
        if (instance == it->instance || it->nodes.contains(instance)) continue;
        ConnectionProfile node = parent;
        const QString hostPort = hostPortOf(instance);
        node.id = id + QStringLiteral("#") + hostPort;
        node.name = parent.name + QStringLiteral(" · ") + hostPort;
        node.endpoint = memberEndpoint(parent.endpoint, hostPort);
        node.clusterOf = id;
        it->nodes.insert(instance, node);
    }
    emit clusterNodesFound(id, nodeLines);
}

void ConnectionHub::onWorkerState(const QString& id, const QString& instance, ConnectionState state,
                                  const QString& message) {
    auto it = sessions_.find(id);
    if (it == sessions_.end()) {  // closed: its last word (stopped)
        emit stateChanged(id, state, message);
        emit instanceStateChanged(instance, state);
        return;
    }
    it->states[instance] = {state, message};
    // The connection's state is its worst node's, said with that node's name on a cluster
    // (the seed's opening state counts only until the nodes report).
    const bool cluster = !it->nodes.isEmpty();
    ConnectionState worst = state;
    QString said = message;
    int worstSeverity = -1;
    for (auto s = it->states.cbegin(); s != it->states.cend(); ++s) {
        const bool node = s.key() == it->instance || it->nodes.contains(s.key());
        if (cluster && !node) continue;
        if (severity(s->first) <= worstSeverity) continue;
        worstSeverity = severity(s->first);
        worst = s->first;
        said = cluster && s->first != ConnectionState::Connected
                   ? hostPortOf(s.key()) + QStringLiteral(": ") + s->second
                   : s->second;
    }
    emit stateChanged(id, worst, said);
    emit instanceStateChanged(instance, state);
}

void ConnectionHub::setPatterns(const QString& profileId, const QStringList& patterns) {
    auto it = sessions_.find(profileId);
    if (it == sessions_.end()) return;
    ConnectionProfile profile = it->profile;
    profile.patterns = patterns;
    applyLiveEdit(*it, profile);
}

void ConnectionHub::setWatchOptions(const inspect::WatchOptions& options) {
    const inspect::WatchJudging judging{.includeNonLocks = options.includeNonLocks,
                                        .heldTooLong = options.doctor.heldTooLong};
    for (Session& s : sessions_) {
        s.options = sharingCpu(options);  // the session's next worker starts with them
        ConnectionWorker* w = s.worker;
        w->post([w, judging] { w->setJudging(judging); });
    }
}

void ConnectionHub::close(const QString& profileId) {
    auto it = sessions_.find(profileId);
    if (it == sessions_.end()) return;
    Session s = *it;
    sessions_.erase(it);
    stop(s);
    QStringList instances{s.instance};
    for (auto n = s.nodes.cbegin(); n != s.nodes.cend(); ++n) instances << n.key();
    for (auto st = s.states.cbegin(); st != s.states.cend(); ++st)
        if (!instances.contains(st.key())) instances << st.key();
    for (const QString& instance : instances) {
        creditOfInstance_.remove(instance);
        emit instanceClosed(instance);
    }
}

void ConnectionHub::rowsTaken(const QString& instance, qint64 units) {
    auto it = creditOfInstance_.find(instance);
    if (it == creditOfInstance_.end()) return;
    if (const auto credit = it->lock()) credit->release(units);
}

void ConnectionHub::stop(Session& s) {
    s.worker->cancelScan();
    s.worker->stopHandingOver();  // a worker waiting for this thread to take its rows goes on
    // On the worker's thread, while it is alive: it is deleted as its thread finishes. The
    // wait goes through a std::promise rather than a blocking queued call: the same wait,
    // but ordered by the standard library's atomics, which ThreadSanitizer sees, not by a
    // semaphore inside Qt, which it does not (it reported every close as a race).
    std::promise<void> stopped;
    std::future<void> done = stopped.get_future();
    s.worker->post([&stopped, w = s.worker] {
        w->stop();
        stopped.set_value();
    });
    done.wait();
    s.thread->quit();
    s.thread->wait();
    delete s.thread;
}

void ConnectionHub::closeAll() {
    const auto ids = sessions_.keys();
    for (const QString& id : ids) close(id);
}

const ConnectionProfile* ConnectionHub::profile(const QString& profileId) const {
    if (auto it = sessions_.find(profileId); it != sessions_.end()) return &it->profile;
    for (const Session& s : sessions_)
        for (const ConnectionProfile& node : s.nodes)
            if (node.id == profileId) return &node;
    return nullptr;
}

const ConnectionHub::Session* ConnectionHub::sessionOfInstance(const QString& instance) const {
    for (const Session& s : sessions_)
        if (s.instance == instance || s.nodes.contains(instance) || s.states.contains(instance))
            return &s;
    return nullptr;
}

QString ConnectionHub::instanceFor(const ConnectionProfile& profile) const {
    // Rows are told apart by their instance: two connections to one server under one name
    // mixed their rows, and the focus and actions of the second reached the first. The
    // first keeps the server's URL (as with one connection); the next are named after
    // their connection as well.
    const QString url = profile.displayUrl();
    for (const QString& candidate : {url, url + QStringLiteral(" · ") + profile.name,
                                     url + QStringLiteral(" · ") + profile.id})
        if (!sessionOfInstance(candidate)) return candidate;
    return url + QStringLiteral(" · ") + profile.id + QStringLiteral(" · ") +
           QString::number(sessions_.size());
}

const ConnectionProfile* ConnectionHub::profileForInstance(const QString& instance) const {
    const Session* s = sessionOfInstance(instance);
    if (!s) return nullptr;
    auto node = s->nodes.find(instance);
    return node != s->nodes.end() ? &*node : &s->profile;
}

void ConnectionHub::act(const QString& instance, LockAction action, const inspect::LockRecord& seen,
                        qint64 ttlMs, bool confirmed) {
    const Session* s = sessionOfInstance(instance);
    if (!s) return;
    const QString key = QString::fromStdString(seen.key);
    s->worker->post([w = s->worker, action, key, seen, ttlMs, confirmed] {
        w->act(action, key, seen, ttlMs, confirmed);
    });
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
    if (const Session* s = sessionOfInstance(instance))
        s->worker->setFocus(instance, std::move(keys));  // thread-safe; applied at its next round
}

void ConnectionHub::cancelScans() {
    for (const Session& s : sessions_) s.worker->cancelScan();
}

}  // namespace lockscope::ui
