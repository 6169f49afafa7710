#include "session/connection_worker.h"

#include <QDateTime>
#include <QMutexLocker>
#include <algorithm>
#include <functional>
#include <utility>

#include "lockscope/errors.h"
#include "lockscope/inspect/audit_log.h"
#include "session/lock_companions.h"
#include "session/replica_to_watch.h"
#include "session/tsan_handover.h"

namespace lockscope::ui {
namespace {

constexpr int kMaxBackoffMs = 10'000;
constexpr int kMaxLogEntriesPerFlush = 400;
// With "Scan replicas", how often a watch that fell back to the primary looks for a replica.
constexpr std::chrono::seconds kReplicaRetry{10};

bool isFatal(const Error& e) {
    // Retrying cannot fix credentials, a denied SCAN or a service name no Sentinel knows; it
    // can fix a restart, a failover or Sentinels that are down.
    return e.kind() == ErrorKind::Authentication || e.kind() == ErrorKind::PermissionDenied ||
           e.kind() == ErrorKind::InvalidArgument ||
           dynamic_cast<const UnknownServiceError*>(&e) != nullptr;
}

}  // namespace

QString toString(ConnectionState state) {
    switch (state) {
        case ConnectionState::Connecting:
            return QObject::tr("connecting");
        case ConnectionState::Connected:
            return QObject::tr("connected");
        case ConnectionState::Reconnecting:
            return QObject::tr("reconnecting");
        case ConnectionState::Failed:
            return QObject::tr("failed");
        case ConnectionState::Stopped:
            return QObject::tr("stopped");
    }
    return {};
}

ConnectionWorker::ConnectionWorker(ConnectionProfile profile,
                                   std::shared_ptr<inspect::AuditLog> audit,
                                   inspect::WatchOptions options, inspect::WatchMemory memory)
    : profile_(std::move(profile)),
      instance_(profile_.displayUrl()),
      audit_(std::move(audit)),
      options_(std::move(options)),
      memory_(std::move(memory)) {
    options_.budget = profile_.maxLoad;
    options_.scan.patterns.clear();
    for (const QString& p : profile_.patterns) options_.scan.patterns.push_back(p.toStdString());
    // Rows appear as a long scan streams in, batch by batch, not all at the end.
    options_.onRescanBatch = [this](std::vector<inspect::LockRecord>& batch,
                                    const inspect::ScanProgress& progress) {
        if (watch_) completeFromTable(batch, watch_->table());
        if (!batch.empty()) emitLocksChanged(batch, {}, false);
        emit scanProgress(instance_, progress.fraction, progress.keysSeen);
    };
}

ConnectionWorker::~ConnectionWorker() = default;

void ConnectionWorker::emitLocksChanged(const std::vector<inspect::LockRecord>& changed,
                                        const QStringList& removed, bool rescanned) {
    // The view keeps the watch's own records (one copy of each lock in the window, issue
    // 18). A record completed here (a Redisson fence, a Spring registry's kind) or no longer
    // in the table is the exception: that row gets a record of its own.
    QVector<inspect::SharedLockRecord> shared;
    shared.reserve(qsizetype(changed.size()));
    for (const inspect::LockRecord& r : changed) {
        inspect::SharedLockRecord kept = watch_ ? watch_->share(r.key) : nullptr;
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
    emit locksChanged(instance_, shared, removed, rescanned);
}

void ConnectionWorker::cancelScan() {
    QMutexLocker lock(&scanStopMutex_);
    scanStop_.request_stop();
}

std::stop_token ConnectionWorker::beginScan() {
    QMutexLocker lock(&scanStopMutex_);
    scanStop_ = std::stop_source();
    return scanStop_.get_token();
}

void ConnectionWorker::setFocus(std::vector<std::string> keys) {
    QMutexLocker lock(&focusMutex_);
    pendingFocus_ = std::move(keys);
}

void ConnectionWorker::applyFocus() {
    std::optional<std::vector<std::string>> focus;
    {
        QMutexLocker lock(&focusMutex_);
        focus.swap(pendingFocus_);
    }
    if (focus) appliedFocus_ = std::move(*focus);
    if (focus && watch_) watch_->setFocus(appliedFocus_);
}

void ConnectionWorker::reportLoad() {
    if (!watch_) return;
    inspect::LoadFigures f = watch_->load();
    emit loadMeasured(instance_, f.commandsPerSecond, f.serverShare, f.budget);
}

void ConnectionWorker::start() {
    stepTimer_ = new QTimer(this);
    stepTimer_->setSingleShot(true);
    connect(stepTimer_, &QTimer::timeout, this, &ConnectionWorker::idle);
    logTimer_ = new QTimer(this);
    logTimer_->setInterval(100);  // the command log is coalesced, not sent per command
    connect(logTimer_, &QTimer::timeout, this, [this] {
        flushCommandLog();
        if (++logTicks_ % 10 == 0) reportLoad();  // once a second
    });
    logTimer_->start();
    setState(ConnectionState::Connecting, tr("connecting to %1").arg(instance_));
    for (const GivenSlot& g : std::exchange(givenBeforeStart_, {}))
        adoptSlot(g.from, g.slot, g.records);
    scheduleNext(0);
}

void ConnectionWorker::stop() {
    stopped_ = true;
    cancelScan();
    if (stepTimer_) stepTimer_->stop();
    flushCommandLog();
    dropConnection();
    setState(ConnectionState::Stopped, tr("disconnected"));
}

void ConnectionWorker::refresh() {
    if (!watch_ || stopped_) return;
    watch_->requestRescan();
    nextStepAt_ = {};
    scheduleNext(0);
}

void ConnectionWorker::refreshAtFullSpeed() {
    if (!watch_ || stopped_) return;
    watch_->requestRescan(true);
    nextStepAt_ = {};
    scheduleNext(0);
}

void ConnectionWorker::scheduleNext(int ms) {
    if (!stopped_) stepTimer_->start(ms);
}

void ConnectionWorker::idle() {
    if (stopped_) return;
    auto now = std::chrono::steady_clock::now();
    if (!watch_ || now >= nextStepAt_) {  // also: (re)connect
        step();
        return;
    }
    try {
        // Short slices, so queued actions and Refresh wait at most this long.
        auto slice =
            std::min(std::chrono::duration_cast<std::chrono::milliseconds>(nextStepAt_ - now),
                     std::chrono::milliseconds(100));
        inspect::WatchUpdate update = watch_->waitForEvents(slice);
        handOffRedirected(update);
        completeFromTable(update.changed, watch_->table());
        if (!update.changed.empty() || !update.removed.empty()) {
            QStringList removed;
            for (const auto& key : update.removed) removed << QString::fromStdString(key);
            emitLocksChanged(update.changed, removed, false);
        }
        scheduleNext(0);
    } catch (const Error&) {
        nextStepAt_ = {};  // the next step finds out what happened and reports it
        scheduleNext(0);
    }
}

void ConnectionWorker::setState(ConnectionState state, const QString& message) {
    state_ = state;
    emit stateChanged(instance_, state, message);
}

Endpoint ConnectionWorker::serverNow() {
    if (profile_.sentinelUrl.isEmpty()) return profile_.endpoint;
    // The data nodes' credentials and TLS as edited, the Sentinels' password from the vault.
    if (!sentinel_) sentinel_ = std::make_unique<SentinelFollower>(profile_.sentinelTarget());
    SentinelFollower::PrimaryNow now = sentinel_->primaryNow();
    if (!now.firstNote.isEmpty()) logNote(now.firstNote);
    if (now.failedOverFrom) noteFailover(*now.failedOverFrom, sentinel_->primary());
    return now.endpoint;
}

void ConnectionWorker::noteFailover(const std::string& from, const std::string& to) {
    const QString was = QString::fromStdString(from), is = QString::fromStdString(to);
    logNote(tr("failover: the primary is now %1 (was %2); a lock not yet replicated to it when "
               "it was promoted is lost")
                .arg(is, was));
    memory_.runId.clear();  // another server, not a restart of the same one
    emit failoverSeen(instance_, was, is, QDateTime::currentMSecsSinceEpoch());
}

void ConnectionWorker::connectNow() {
    connection_ = std::make_unique<Connection>(
        Connection::open(serverNow(), {.readOnly = profile_.readOnly}));
    observe(*connection_);
    askAboutCluster();  // before the watch: a cluster's watch keeps redirected keys
    // A key whose slot moved is kept and handed to the new owner's worker (handOffRedirected),
    // not dropped as gone until that node's sweep finds it.
    options_.handOffRedirects = cluster_ != nullptr || !profile_.clusterOf.isEmpty();
    // Actions always use connection_ (the primary); the watch may read a replica instead.
    openReplicaToWatch();
    replicaRetryAt_ = std::chrono::steady_clock::now() + kReplicaRetry;
    watchNow();
}

void ConnectionWorker::watchNow() {
    Connection& watched = replicaConnection_ ? *replicaConnection_ : *connection_;
    options_.doctor.replicaOnPurpose = replicaConnection_ != nullptr;  // no "on-replica" advice
    watch_ = std::make_unique<inspect::LockWatch>(watched, options_, std::exchange(memory_, {}));
    watch_->setFocus(appliedFocus_);  // a reconnected watch reads the same rows first
}

void ConnectionWorker::retryReplica() {
    if (!profile_.scanReplica || replicaConnection_ || !watch_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now < replicaRetryAt_) return;
    replicaRetryAt_ = now + kReplicaRetry;
    if (!openReplicaToWatch()) return;
    // A replica answers again: the watch moves there with what it knew, as at a reconnect.
    memory_ = watch_->takeMemory();
    watchNow();
}

bool ConnectionWorker::openReplicaToWatch() {
    if (!profile_.scanReplica) return false;
    const bool again = !replicaNote_.isEmpty();  // a reconnect: the replica may have changed
    ReplicaToWatch chosen;
    if (sentinel_) {
        chosen = openSentinelReplica(sentinel_->target(), sentinel_->primary());
    } else if (inspect::ClusterRouter* router = actionRouter()) {
        chosen = openClusterReplica(*router, again);
        logClusterEvents();  // what asking again found
    } else {
        chosen.note = tr("scan replicas: %1 is a single server, neither a Redis Cluster nor "
                         "behind Sentinel: scanning it")
                          .arg(instance_);
    }
    replicaConnection_ = std::move(chosen.connection);
    if (replicaConnection_) observe(*replicaConnection_);
    if (chosen.note != replicaNote_) logNote(chosen.note);  // once per change, not per reconnect
    replicaNote_ = chosen.note;
    return replicaConnection_ != nullptr;
}

void ConnectionWorker::observe(Connection& connection) {
    connection.setObserver([this](const CommandEvent& e) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QMutexLocker lock(&logMutex_);
        if (pendingLog_.size() >= std::size_t(kMaxLogEntriesPerFlush)) pendingLog_.pop_front();
        pendingLog_.push_back({e, now});
    });
}

void ConnectionWorker::step() {
    if (stopped_) return;
    followCluster();
    try {
        // A Sentinel announced a failover (+switch-master): the next connection is to the new
        // primary, now, even while the old one (demoted to a replica) still answers reads.
        if (connection_ && sentinel_ && sentinel_->switched()) dropConnection();
        if (!connection_) connectNow();
        retryReplica();
        const std::stop_token scanStop = beginScan();
        applyFocus();
        bool rescan = !watch_->table().size() || state_ != ConnectionState::Connected;
        if (rescan) emit scanStarted(instance_);
        const auto stepStarted = std::chrono::steady_clock::now();
        inspect::WatchUpdate update = watch_->step(scanStop);
        if (!update.connected) throw ConnectionLostError(update.error);
        handOffRedirected(update);
        completeFromTable(update.changed, watch_->table());
        QStringList removed;
        if (update.emptied)
            emit serverEmptied(instance_);
        else
            for (const auto& key : update.removed) removed << QString::fromStdString(key);
        if (!update.restartNote.empty()) logNote(QString::fromStdString(update.restartNote));
        if (update.fullSpeedScan)
            logNote(
                tr("rescanning at full speed, as asked: the load budget does not pace this "
                   "scan"));
        if (!update.changed.empty() || !removed.isEmpty() || update.rescanned)
            emitLocksChanged(update.changed, removed, update.rescanned);
        // Connected only after the rescan's removals are out: a view stops showing the
        // rows as stale when it hears this, and the ghosts of a restart are gone by then.
        if (state_ != ConnectionState::Connected) {
            backoffMs_ = 0;
            lastFailure_.clear();
            setState(ConnectionState::Connected, tr("watching %1").arg(instance_));
        }
        if (update.rescanned || rescan) {
            QStringList notes;
            for (const auto& n : watch_->notes()) notes << QString::fromStdString(n);
            emit scanFinished(instance_, scanStop.stop_requested(), notes);
        }
        // At a fixed rate: a step's own time (a large table's walk, a sweep round) does not
        // push every later read of the rows on screen back by as much.
        nextStepAt_ = std::max(stepStarted + options_.pollInterval,
                               std::chrono::steady_clock::now() + options_.pollInterval / 4);
        scheduleNext(0);
    } catch (const Error& e) {
        // A MOVED, CLUSTERDOWN or lost connection is a reason to ask the cluster again.
        if (cluster_) cluster_->noteError(e, std::chrono::steady_clock::now());
        QString message = QString::fromStdString(e.what());
        if (isFatal(e)) {
            connection_.reset();
            watch_.reset();
            replicaConnection_.reset();
            noteFailure(tr("connection failed, not retried (edit the connection to fix it): %1")
                            .arg(message));
            setState(ConnectionState::Failed, message);
            return;
        }
        backoffMs_ = backoffMs_ == 0 ? 500 : std::min(backoffMs_ * 2, kMaxBackoffMs);
        noteFailure(tr("not connected: %1 — retrying, at most %2 s apart")
                        .arg(message)
                        .arg(kMaxBackoffMs / 1000));
        dropConnection();
        setState(
            ConnectionState::Reconnecting,
            tr("%1 — retrying in %2 s").arg(message).arg(double(backoffMs_) / 1000.0, 0, 'f', 1));
        nextStepAt_ = {};
        scheduleNext(backoffMs_);
    }
}

void ConnectionWorker::act(LockAction action, const QString& key, const inspect::LockRecord& seen,
                           qint64 ttlMs, bool confirmed) {
    const LockActionRequest request{action, &seen, ttlMs, confirmed};
    const QString name = actionName(action);
    if (!connection_) {
        const QString why = tr("not connected to %1").arg(instance_);
        auditRefusal(audit_.get(), instance_, request, why);
        emit actionFinished(instance_, key, name, false, -1, why);
        return;
    }
    const auto observeIt = [this](Connection& c) { observe(c); };
    try {
        inspect::ActionResult result;
        if (inspect::ClusterRouter* router = actionRouter()) {
            // On a cluster the action goes to the key's slot owner now, not to the node the
            // row was read from: the slot may have moved since. The router follows one MOVED
            // (asks for the topology, sends again to the new owner) and one ASK (ASKING on
            // the importing node). Those replies mean the node ran nothing; a lost reply is
            // the outcome Unknown, returned, never sent again.
            router->onKey(
                seen.key,
                [&](Connection& c) {
                    observe(c);
                    result = runLockAction(c, router, audit_.get(), observeIt, request);
                },
                [&](Connection& c) {
                    observe(c);
                    if (!c.isReadOnly()) inspect::preloadActionScripts(c);
                });
            logClusterEvents();
        } else {
            result = runLockAction(*connection_, nullptr, audit_.get(), observeIt, request);
        }
        emit actionFinished(instance_, key, name, result.ok(), int(result.outcome),
                            QString::fromStdString(result.message));
    } catch (const Error& e) {
        if (cluster_) cluster_->noteError(e, std::chrono::steady_clock::now());
        // A member's router whose node connection failed is made again at the next action.
        if (dynamic_cast<const IoError*>(&e)) memberRouter_.reset();
        emit actionFinished(instance_, key, name, false, -1, QString::fromStdString(e.what()));
    }
    nextStepAt_ = {};  // show the result of the action at once
    scheduleNext(0);
}

void ConnectionWorker::dropConnection() {
    if (watch_) memory_ = watch_->takeMemory();
    watch_.reset();
    replicaConnection_.reset();
    connection_.reset();
}

void ConnectionWorker::noteFailure(const QString& note) {
    // Once per new reason, not at every retry: the command log tells what went wrong without
    // drowning the commands around it, and the status line and sidebar say it meanwhile.
    if (note == lastFailure_) return;
    lastFailure_ = note;
    logNote(note);
}

void ConnectionWorker::logNote(const QString& note) {
    // Not a command: shown in the command log between the commands it explains.
    flushCommandLog();
    const QVector<CommandLogEntry> entry{{instance_, QStringLiteral("— ") + note, QString(), 0,
                                          QDateTime::currentMSecsSinceEpoch()}};
    handOver(entry.constData());  // read by the command log on the GUI thread
    emit commandsLogged(entry);
}

void ConnectionWorker::flushCommandLog() {
    std::deque<SentCommand> sent;
    {
        QMutexLocker lock(&logMutex_);
        sent.swap(pendingLog_);
    }
    if (sent.empty()) return;
    QVector<CommandLogEntry> batch;
    batch.reserve(qsizetype(sent.size()));
    for (const SentCommand& c : sent)
        batch.append({instance_, QString::fromStdString(c.event.command),
                      QString::fromStdString(c.event.replySummary), qint64(c.event.latency.count()),
                      c.atMs});
    handOver(batch.constData());  // read by the command log on the GUI thread
    emit commandsLogged(batch);
}

}  // namespace lockscope::ui
