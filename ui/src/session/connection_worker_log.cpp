// The command log half of ConnectionWorker (connection_worker.h): the commands every
// connection of the worker sent (each node's watch's, an action's), coalesced and sent to the
// GUI every 100 ms, and the notes that explain them, in order.

#include <QDateTime>
#include <QMutexLocker>

#include "session/connection_worker.h"
#include "support/tsan_handover.h"

namespace lockscope::ui {
namespace {

constexpr int kMaxLogEntriesPerFlush = 400;

}  // namespace

void ConnectionWorker::observe(Connection& connection) {
    // A cluster's nodes each have their own lines, named as their rows are; a single server or
    // a Sentinel service's primary is the connection's.
    const bool cluster = engine_ && engine_->isCluster();
    const QString server =
        cluster ? QString::fromStdString(connection.endpoint().display()) : instance_;
    connection.setObserver([this, server](const CommandEvent& e) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        QMutexLocker lock(&logMutex_);
        if (pendingLog_.size() >= std::size_t(kMaxLogEntriesPerFlush)) pendingLog_.pop_front();
        pendingLog_.push_back({e, server, now});
    });
}

void ConnectionWorker::noteFailure(const QString& note) {
    // Once per new reason, not at every retry: the command log tells what went wrong without
    // drowning the commands around it, and the status line and sidebar say it meanwhile.
    if (note == lastFailure_) return;
    lastFailure_ = note;
    logNote(note);
}

void ConnectionWorker::logNote(const QString& note, const QString& instance) {
    // Not a command: shown in the command log between the commands it explains.
    flushCommandLog(true);
    const QVector<CommandLogEntry> entry{{instance.isEmpty() ? instance_ : instance,
                                          QStringLiteral("— ") + note, QString(), 0,
                                          QDateTime::currentMSecsSinceEpoch()}};
    handOver(entry.constData());  // read by the command log on the GUI thread
    logCredit_->acquire(1);
    emit commandsLogged(entry);
}

void ConnectionWorker::flushCommandLog(bool evenIfBusy) {
    {
        QMutexLocker lock(&logMutex_);
        if (pendingLog_.empty()) return;
    }
    // A GUI thread behind its queue has not shown the last flush: these lines wait (the
    // newest kept, see observe()) rather than pile up in Qt's queue, 10 flushes a second per
    // connection (issue 36).
    if (evenIfBusy)
        logCredit_->acquire(1);
    else if (!logCredit_->tryAcquire(1))
        return;
    std::deque<SentCommand> sent;
    {
        QMutexLocker lock(&logMutex_);
        sent.swap(pendingLog_);
    }
    QVector<CommandLogEntry> batch;
    batch.reserve(qsizetype(sent.size()));
    for (const SentCommand& c : sent)
        batch.append({c.instance, QString::fromStdString(c.event.command),
                      QString::fromStdString(c.event.replySummary), qint64(c.event.latency.count()),
                      c.atMs});
    handOver(batch.constData());  // read by the command log on the GUI thread
    emit commandsLogged(batch);
}

}  // namespace lockscope::ui
