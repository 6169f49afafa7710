#include "session/connection_worker.h"

#include <QMutexLocker>
#include <algorithm>
#include <utility>

#include "lockscope/errors.h"
#include "lockscope/inspect/audit_log.h"
#include "session/lock_companions.h"
#include "support/thread_share.h"

namespace lockscope::ui {
namespace {

// An engine that could not open (a server or every Sentinel down) is opened again with the
// engine's own backoff for a lost node: 500 ms doubling to 10 s.
constexpr int kFirstBackoffMs = 500;
constexpr int kMaxBackoffMs = 10'000;
// Between rounds the worker follows keyspace notifications in slices this long at most, so
// queued actions and Refresh wait no longer.
constexpr std::chrono::milliseconds kIdleSlice{100};

bool isFatal(const Error& e) {
    // Retrying cannot fix credentials, a denied SCAN or a service name no Sentinel knows; it
    // can fix a restart, a failover or Sentinels that are down.
    return e.kind() == ErrorKind::Authentication || e.kind() == ErrorKind::PermissionDenied ||
           e.kind() == ErrorKind::InvalidArgument ||
           dynamic_cast<const UnknownServiceError*>(&e) != nullptr;
}

inspect::ServerWatchOptions engineOptions(const ConnectionProfile& profile,
                                          const inspect::WatchOptions& watch) {
    inspect::ServerWatchOptions o;
    if (profile.sentinelUrl.isEmpty())
        o.endpoint = profile.endpoint;
    else
        o.sentinel = profile.sentinelTarget();  // the data nodes' credentials and TLS as edited
    o.connection.readOnly = true;               // the watch only reads; actions connect apart
    o.clusterAddressing = profile.clusterAddressing;
    o.scanReplicas = profile.scanReplica;
    o.watch = watch;
    // Is each holder alive? (issue 31): the table's Alive? column, the orphan filter and the
    // release confirmation show the engine's verdicts, read within the reader's own caps.
    o.liveness = inspect::LivenessOptions{};
    // A turn's new verdicts fit in what a worker may hand over: each replaces a record the
    // view holds until it applies the new one. Turns of 20,000 rows (the default) sent fifty
    // connections' first verdicts at once, every record twice in memory (gui_fleet_bench).
    o.liveness->maxRowsPerTurn = std::size_t(ConnectionWorker::kRowsInFlight);
    return o;
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
                                   inspect::WatchOptions options, const QString& instance)
    : profile_(std::move(profile)),
      instance_(instance.isEmpty() ? profile_.displayUrl() : instance),
      audit_(std::move(audit)),
      options_(std::move(options)) {
    // The records carry it from the scan on: the window keeps the watch's own records, and a
    // record named otherwise would be copied for its row (LockTableModel::ownedBy).
    options_.scan.instanceName = instance_.toStdString();
    options_.budget = profile_.maxLoad;
    options_.scan.patterns.clear();
    for (const QString& p : profile_.patterns) options_.scan.patterns.push_back(p.toStdString());
}

ConnectionWorker::~ConnectionWorker() = default;

void ConnectionWorker::cancelScan() {
    QMutexLocker lock(&scanStopMutex_);
    scanStop_.request_stop();
}

void ConnectionWorker::stopHandingOver() {
    rowCredit_->close();
    logCredit_->close();
}

std::stop_token ConnectionWorker::beginScan() {
    QMutexLocker lock(&scanStopMutex_);
    if (scanStop_.stop_requested()) scanStop_ = std::stop_source();
    return scanStop_.get_token();
}

void ConnectionWorker::setFocus(const QString& instance, std::vector<std::string> keys) {
    QMutexLocker lock(&focusMutex_);
    pendingFocus_[instance] = std::move(keys);
    focusChanged_ = true;
}

void ConnectionWorker::post(std::function<void()> call) {
    inbox_.post(std::move(call));
    QMetaObject::invokeMethod(this, &ConnectionWorker::runPosted, Qt::QueuedConnection);
}

void ConnectionWorker::applyFocus() {
    {
        QMutexLocker lock(&focusMutex_);
        if (!focusChanged_) return;
        focusChanged_ = false;
        appliedFocus_.clear();
        for (const auto& keys : std::as_const(pendingFocus_))
            appliedFocus_.insert(appliedFocus_.end(), keys.begin(), keys.end());
    }
    // The engine gives each node's watch the keys it holds.
    if (engine_) engine_->setFocus(appliedFocus_);
}

void ConnectionWorker::reportLoad() {
    if (!engine_ || !opened_) return;
    for (const inspect::WatchedNode& n : engine_->nodes()) {
        if (!n.watch) continue;
        const inspect::LoadFigures f = n.watch->load();
        emit loadMeasured(instanceOf(n.name), f.commandsPerSecond, f.serverShare, f.budget);
    }
}

void ConnectionWorker::start() {
    yieldToTheGuiThread();  // the window answers first (thread_share.h)
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
    emit stateChanged(instance_, ConnectionState::Connecting,
                      tr("connecting to %1").arg(instance_));
    scheduleNext(0);
}

void ConnectionWorker::stop() {
    stopped_ = true;
    cancelScan();
    if (stepTimer_) stepTimer_->stop();
    flushCommandLog(true);
    router_.reset();
    actionConnection_.reset();
    engine_.reset();
    for (const auto& [node, instance] : instances_)
        emit stateChanged(instance, ConnectionState::Stopped, tr("disconnected"));
    emit stateChanged(instance_, ConnectionState::Stopped, tr("disconnected"));
}

void ConnectionWorker::refresh() {
    if (!engine_ || !opened_ || stopped_) return;
    engine_->requestRescan();
    scheduleNext(0);
}

void ConnectionWorker::refreshAtFullSpeed() {
    if (!engine_ || !opened_ || stopped_) return;
    engine_->requestRescan(true);
    scheduleNext(0);
}

void ConnectionWorker::scheduleNext(int ms) {
    if (!stopped_ && stepTimer_) stepTimer_->start(ms);
}

void ConnectionWorker::idle() {
    if (stopped_) return;
    if (!opened_) {
        openEngine();
        return;
    }
    const auto now = inspect::SteadyClock::now();
    if (now >= engine_->nextStepAt()) {
        runRound();
        return;
    }
    try {
        const auto slice = std::min(
            std::chrono::duration_cast<std::chrono::milliseconds>(engine_->nextStepAt() - now),
            kIdleSlice);
        deliver(engine_->waitForEvents(slice, beginScan()));
    } catch (const Error& e) {
        failConnection(e);
        return;
    }
    scheduleNext(0);
}

void ConnectionWorker::openEngine() {
    try {
        auto o = engineOptions(profile_, options_);
        // Rows appear as a long scan streams in, batch by batch, not all at the end.
        o.onNodeRescanBatch = [this](const std::string& node,
                                     std::vector<inspect::LockRecord>& batch,
                                     const inspect::ScanProgress& progress) {
            const QString instance = instanceOf(node);
            if (!scanning_.contains(instance)) {
                scanning_.insert(instance);
                emit scanStarted(instance);
            }
            // A Redisson fence, a Spring registry's kind: completed from the watch's table.
            if (inspect::LockWatch* watch = engine_->watchOf(node))
                completeFromTable(batch, watch->table());
            if (!batch.empty()) emitLocksChanged(instance, node, batch, {}, false);
            emit scanProgress(instance, progress.fraction, progress.keysSeen);
        };
        o.onNodeConnection = [this](const std::string& node, Connection& c) {
            (void)node;
            observe(c);
        };
        engine_ = std::make_unique<inspect::ServerWatch>(std::move(o));
        Events opening = engine_->open();
        opened_ = true;
        openBackoffMs_ = 0;
        lastFailure_.clear();
        deliver(std::move(opening));  // learns the nodes, and a cluster's node lines
        scheduleNext(0);
    } catch (const Error& e) {
        engine_.reset();
        opened_ = false;
        const QString message = QString::fromStdString(e.what());
        if (isFatal(e)) {
            noteFailure(tr("connection failed, not retried (edit the connection to fix it): %1")
                            .arg(message));
            emit stateChanged(instance_, ConnectionState::Failed, message);
            return;
        }
        openBackoffMs_ =
            openBackoffMs_ == 0 ? kFirstBackoffMs : std::min(openBackoffMs_ * 2, kMaxBackoffMs);
        noteFailure(tr("not connected: %1 — retrying, at most %2 s apart")
                        .arg(message)
                        .arg(kMaxBackoffMs / 1000));
        emit stateChanged(instance_, ConnectionState::Reconnecting,
                          tr("%1 — retrying in %2 s")
                              .arg(message)
                              .arg(double(openBackoffMs_) / 1000.0, 0, 'f', 1));
        scheduleNext(openBackoffMs_);
    }
}

void ConnectionWorker::runRound() {
    applyFocus();
    const std::stop_token stop = beginScan();
    try {
        Events events = engine_->step(stop);
        deliver(std::move(events), stop.stop_requested());  // asked after the round ran
    } catch (const Error& e) {
        failConnection(e);
        return;
    }
    openBackoffMs_ = 0;
    scheduleNext(0);
}

// What the engine throws from a round: what retrying cannot fix (a denied SCAN, bad options)
// stops the connection, which says why and waits for the operator to edit it; anything else
// (a server error the engine does not expect) is said once and the round tried again later.
void ConnectionWorker::failConnection(const Error& e) {
    const QString message = QString::fromStdString(e.what());
    finishScans(true);
    if (!isFatal(e)) {
        noteFailure(tr("not read: %1 — retrying, at most %2 s apart")
                        .arg(message)
                        .arg(kMaxBackoffMs / 1000));
        openBackoffMs_ =
            openBackoffMs_ == 0 ? kFirstBackoffMs : std::min(openBackoffMs_ * 2, kMaxBackoffMs);
        for (const auto& [node, instance] : instances_)
            emit stateChanged(instance, ConnectionState::Reconnecting, message);
        scheduleNext(openBackoffMs_);
        return;
    }
    noteFailure(
        tr("connection failed, not retried (edit the connection to fix it): %1").arg(message));
    for (const auto& [node, instance] : instances_)
        emit stateChanged(instance, ConnectionState::Failed, message);
    if (instances_.empty()) emit stateChanged(instance_, ConnectionState::Failed, message);
    engine_.reset();
    opened_ = false;
    stopped_ = true;
}

}  // namespace lockscope::ui
