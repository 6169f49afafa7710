// The engine's events as the window's signals (connection_worker.h): a node's rows become
// locksChanged (or serverEmptied) under the node's instance, keys handed from one node's watch
// to another's become locksMoved, a node's state stateChanged, a failover failoverSeen, and a
// note its sentence (describe()) in the command log.

#include <QDateTime>
#include <algorithm>
#include <map>

#include "session/connection_worker.h"
#include "session/lock_companions.h"
#include "support/tsan_handover.h"

namespace lockscope::ui {
namespace {

using Kind = inspect::WatchEvent::Kind;

ConnectionState toState(inspect::NodeState state) {
    switch (state) {
        case inspect::NodeState::Connecting:
            return ConnectionState::Connecting;
        case inspect::NodeState::Connected:
            return ConnectionState::Connected;
        case inspect::NodeState::Reconnecting:
            return ConnectionState::Reconnecting;
        case inspect::NodeState::Failed:
            return ConnectionState::Failed;
    }
    return ConnectionState::Failed;
}

QStringList toList(const std::vector<std::string>& keys) {
    QStringList list;
    list.reserve(qsizetype(keys.size()));
    for (const auto& k : keys) list << QString::fromStdString(k);
    return list;
}

}  // namespace

QString ConnectionWorker::instanceOf(const std::string& node) const {
    if (!engine_ || !engine_->isCluster()) return instance_;
    auto it = instances_.find(node);
    return it != instances_.end() ? it->second : QString::fromStdString(node);
}

const std::string* ConnectionWorker::nodeOfInstance(const QString& instance) const {
    for (const auto& [node, shown] : instances_)
        if (shown == instance) return &node;
    return nullptr;
}

void ConnectionWorker::deliver(Events events, bool cancelled) {
    // A node the engine began to watch (a scale-out's new primary) has rows of its own.
    bool newNode = false;
    const bool cluster = engine_->isCluster();
    for (const inspect::WatchedNode& n : engine_->nodes())
        newNode =
            instances_.try_emplace(n.name, cluster ? QString::fromStdString(n.name) : instance_)
                .second ||
            newNode;
    if (newNode && cluster) describeCluster(true);
    deliverMoves(events);
    // A node is said to be connected only after its round's rows are out: a view stops
    // showing the rows as stale when it hears this, and a restart's ghosts are gone by then.
    std::vector<const inspect::WatchEvent*> connected;
    for (inspect::WatchEvent& e : events) {
        switch (e.kind) {
            case Kind::Rows:
                deliverRows(e, e.rows);
                break;
            case Kind::NodeState:
                if (e.state == inspect::NodeState::Connected)
                    connected.push_back(&e);
                else
                    deliverState(e);
                break;
            case Kind::Topology:
                logNote(tr("cluster topology changed: %1").arg(QString::fromStdString(e.change)));
                describeCluster(false);
                break;
            case Kind::Failover:
                deliverFailover(e);
                break;
            case Kind::Note:
                deliverNote(e);
                break;
            case Kind::Resync:
                break;  // the node's state and rows say it
        }
    }
    for (const auto* e : connected) deliverState(*e);
    if (cancelled) finishScans(true);
}

void ConnectionWorker::deliverMoves(Events& events) {
    std::map<std::string, inspect::WatchEvent*> rowsOf;
    for (auto& e : events)
        if (e.kind == Kind::Rows) rowsOf[e.node] = &e;
    for (auto& [giver, e] : rowsOf) {
        if (e->rows.movedAway.empty()) continue;
        // By taker: the records it read, in the order given.
        std::map<std::string, QVector<inspect::LockRecord>> taken;
        std::vector<std::string> lost;
        for (const std::string& key : std::exchange(e->rows.movedAway, {})) {
            bool found = false;
            for (auto& [taker, t] : rowsOf) {
                auto& changed = t->rows.changed;
                auto it = std::find_if(changed.begin(), changed.end(),
                                       [&](const inspect::LockRecord& r) { return r.key == key; });
                if (taker == giver || it == changed.end()) continue;
                taken[taker].append(std::move(*it));
                changed.erase(it);
                found = true;
                break;
            }
            if (!found) lost.push_back(key);  // gone meanwhile: as a release would
        }
        const QString from = instanceOf(giver);
        for (auto& [taker, records] : taken) {
            handOver(records.constData());  // read on the GUI thread (see tsan_handover.h)
            emit locksMoved(from, instanceOf(taker), records, {});
        }
        e->rows.removed.insert(e->rows.removed.end(), lost.begin(), lost.end());
    }
}

void ConnectionWorker::deliverRows(const inspect::WatchEvent& e, inspect::WatchUpdate& rows) {
    if (!rows.connected) return;  // a failed read: the node's state says it
    const QString instance = instanceOf(e.node);
    if (inspect::LockWatch* watch = engine_->watchOf(e.node))
        completeFromTable(rows.changed, watch->table());
    QStringList removed;
    if (rows.emptied)
        emit serverEmptied(instance);
    else
        removed = toList(rows.removed);
    if (!rows.restartNote.empty()) logNote(QString::fromStdString(rows.restartNote), instance);
    if (!rows.changed.empty() || !removed.isEmpty() || rows.rescanned)
        emitLocksChanged(instance, e.node, rows.changed, removed, rows.rescanned);
    if (!rows.rescanned) return;
    if (!scanning_.contains(instance)) emit scanStarted(instance);  // a scan of one batch
    scanning_.remove(instance);
    QStringList notes;
    if (const inspect::LockWatch* watch = engine_->watchOf(e.node))
        for (const auto& n : watch->notes()) notes << QString::fromStdString(n);
    emit scanFinished(instance, false, notes);
}

void ConnectionWorker::finishScans(bool cancelled) {
    for (const QString& instance : std::exchange(scanning_, {}))
        emit scanFinished(instance, cancelled, {});
}

void ConnectionWorker::deliverState(const inspect::WatchEvent& e) {
    const QString instance = instanceOf(e.node);
    const QString error = QString::fromStdString(e.error);
    switch (e.state) {
        case inspect::NodeState::Connected:
            lastFailure_.clear();
            emit stateChanged(instance, ConnectionState::Connected,
                              tr("watching %1").arg(instance));
            return;
        case inspect::NodeState::Reconnecting: {
            const double retry = double(e.retryIn.count()) / 1000.0;
            noteFailure(tr("not connected: %1 — retrying, at most 10 s apart").arg(error));
            emit stateChanged(instance, ConnectionState::Reconnecting,
                              tr("%1 — retrying in %2 s").arg(error).arg(retry, 0, 'f', 1));
            return;
        }
        default:
            emit stateChanged(instance, toState(e.state), error);
    }
}

void ConnectionWorker::deliverFailover(const inspect::WatchEvent& e) {
    const QString from = QString::fromStdString(e.from), to = QString::fromStdString(e.to);
    logNote(tr("failover: the primary is now %1 (was %2); a lock not yet replicated to it when "
               "it was promoted is lost")
                .arg(to, from));
    const qint64 at = QDateTime::currentMSecsSinceEpoch();
    actionConnection_.reset();  // actions go to the new primary
    if (e.sentinel || !engine_->isCluster()) {
        emit failoverSeen(instance_, from, to, at);  // the service's rows stay where they are
        return;
    }
    // On a cluster the shard's rows go under the promoted node, with their history; its
    // rescan then says what it holds.
    const QString was = instanceOf(e.node);
    instances_[e.node] = to;
    if (inspect::LockWatch* watch = engine_->watchOf(e.node)) {
        QVector<inspect::LockRecord> records;
        for (const auto& [key, record] : watch->table().records()) records.append(*record);
        handOver(records.constData());
        emit locksMoved(was, to, records, {});
    }
    emit failoverSeen(to, from, to, at);
    describeCluster(true);
}

void ConnectionWorker::deliverNote(const inspect::WatchEvent& e) {
    const QString text = QString::fromStdString(inspect::describe(e.note));
    logNote(text, e.node.empty() ? QString() : instanceOf(e.node));
    const auto& args = e.note.args;
    if (e.note.id == inspect::WatchNoteId::ClusterDown && args.size() >= 2)
        emit clusterHealth(QString::fromStdString(args[0]), QString::fromStdString(args[1]));
    else if (e.note.id == inspect::WatchNoteId::ClusterUp)
        emit clusterHealth({}, {});
}

void ConnectionWorker::emitLocksChanged(const QString& instance, const std::string& node,
                                        const std::vector<inspect::LockRecord>& changed,
                                        const QStringList& removed, bool rescanned) {
    // The view keeps the watch's own records (one copy of each lock in the window, issue
    // 18). A record completed here (a Redisson fence, a Spring registry's kind) or no longer
    // in the table is the exception: that row gets a record of its own.
    inspect::LockWatch* watch = engine_ ? engine_->watchOf(node) : nullptr;
    QVector<inspect::SharedLockRecord> shared;
    shared.reserve(qsizetype(changed.size()));
    for (const inspect::LockRecord& r : changed) {
        inspect::SharedLockRecord kept = watch ? watch->share(r.key) : nullptr;
        const bool same = kept && kept->observedAt == r.observedAt && kept->pttlMs == r.pttlMs &&
                          kept->kind == r.kind && kept->fence == r.fence &&
                          kept->findings == r.findings && kept->sameHolder(r);
        shared.push_back(same ? std::move(kept) : std::make_shared<const inspect::LockRecord>(r));
        handOver(shared.back().get());
    }
    // The receiver reads these through implicit sharing: the same buffers, whose addresses
    // it takes over before reading.
    handOver(shared.constData());
    handOver(removed.constData());
    // Waits while the GUI thread has not taken what this worker sent before (see
    // handover_credit.h): the scan or the round resumes when it has.
    rowCredit_->acquire(rowUnits(shared, removed));
    emit locksChanged(instance, shared, removed, rescanned);
}

}  // namespace lockscope::ui
