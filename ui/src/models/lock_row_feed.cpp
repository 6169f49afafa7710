#include "models/lock_row_feed.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>
#include <algorithm>
#include <utility>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "models/lock_table_model.h"
#include "support/handover_credit.h"
#include "support/tsan_handover.h"

namespace lockscope::ui {

LockRowFeed::LockRowFeed(LockTableModel& model, QObject* parent) : QObject(parent), model_(model) {
    // Renewed, handed-off and new locks find their place in a re-sort that applyPending()
    // runs in a turn of its own, at most every 100 ms while a backlog streams in.
    model_.setResortPaced(true);
    coalesce_.setSingleShot(true);
    coalesce_.setInterval(100);
    connect(&coalesce_, &QTimer::timeout, this, &LockRowFeed::applyPending);
}

void LockRowFeed::onLocksChanged(const QString& instance,
                                 const QVector<inspect::SharedLockRecord>& changed,
                                 const QStringList& removed, bool) {
    // The worker's records, handed over through Qt's queue (see tsan_handover.h).
    takeOver(changed.constData());
    for (const auto& r : changed) takeOver(r.get());
    takeOver(removed.constData());
    held_[instance] += handoverRowUnits(changed.size(), removed.size());
    pending_.add(instance, changed, removed);
    settle(instance);  // the batch itself, and the waiting records it replaced
    // A scan's stream is gathered for 100 ms (fewer slices and re-sorts); a steady-state
    // update (a renewal, a row on screen re-read) is shown at once: those 100 ms were a
    // tenth of the second a change on screen may take (issue 18).
    constexpr qsizetype kSmallUpdate = 200;
    const bool streaming = scansRunning_ > 0 || pending_.waitingRecords() > kSmallUpdate;
    if (!streaming)
        coalesce_.start(0);
    else if (!coalesce_.isActive())
        coalesce_.start(100);
}

void LockRowFeed::onServerEmptied(const QString& instance) {
    // Updates still pending are about the old server, and the rows go in one model reset.
    pending_.drop(instance);
    settle(instance);
    history_.vanishedAll(instance);
    emit instanceLeaving(instance);
    model_.removeRowsOf(instance);
    emit rowsApplied(instance, {}, {});
}

void LockRowFeed::onLocksMoved(const QString& from, const QString& to,
                               const QVector<inspect::LockRecord>& records,
                               const QStringList& gone) {
    takeOver(records.constData());
    takeOver(gone.constData());
    QStringList keys = gone;
    for (const auto& r : records) keys << QString::fromStdString(r.key);
    // What the old node's worker sent before it gave them up would bring the rows back there.
    pending_.forgetKeys(from, keys);
    settle(from);
    for (const QString& key : keys)
        history_.move(LockTableModel::rowKey(from, key), LockTableModel::rowKey(to, key));
    emit rowsMoving(from, to, keys);
    model_.removeKeys(from, keys, true);  // shown under their new node at once
    // The rows are new to the window under their new node: one shared copy each, as a scan's.
    std::vector<inspect::SharedLockRecord> moved;
    moved.reserve(std::size_t(records.size()));
    for (const auto& r : records) moved.push_back(std::make_shared<const inspect::LockRecord>(r));
    applyUpdate(to, moved, gone);
}

void LockRowFeed::onInstanceClosed(const QString& instance) {
    pending_.drop(instance);
    settle(instance);
    model_.removeInstance(instance);
}

void LockRowFeed::applyRemovalsNow(const QString& instance) {
    const QStringList removed = pending_.takeRemovals(instance);
    if (!removed.isEmpty()) applyUpdate(instance, {}, removed);
    settle(instance);
}

void LockRowFeed::onScanStarted() {
    ++scansRunning_;
}

void LockRowFeed::onScanFinished(bool cancelled) {
    scansRunning_ = std::max(0, scansRunning_ - 1);
    if (!cancelled) releaseFreedMemoryWhenApplied();
}

void LockRowFeed::onScanProgress(double fraction, quint64 keysSeen) {
    // Early in a large scan, size the tables for the rows it projects, so they never grow
    // in one long step mid-scan. From the rows so far, not the keys scanned: among 3M keys
    // with 1M locks, sizing for every key reserved 2M rows too many (about 100 MB).
    constexpr double kMinFraction = 0.02;
    constexpr double kMaxRows = 4e6;
    if (fraction < kMinFraction) return;
    qsizetype rowsSoFar = model_.rowCount();
    rowsSoFar += pending_.waitingRecords();
    // Both projected to the whole scan: capping by the keys scanned so far instead made the
    // projection grow with the scan, and each step rehashed every row on this thread (a
    // 250 ms stall at a million rows).
    const double projectedKeys = double(keysSeen) / fraction;
    const double projectedRows = std::min(projectedKeys, double(rowsSoFar) / fraction * 1.1);
    const int projected = int(std::min(kMaxRows, projectedRows));
    // With headroom: each reserve rehashes every row, and the projection creeps up.
    if (projected > reserved_) {
        reserved_ = int(std::min(kMaxRows, double(projected) * 1.25));
        reserveOffThisThread(reserved_);
    }
}

void LockRowFeed::reserveOffThisThread(int rows) {
    // For a million rows the row index's slots and the history's buckets are 26 MB of fresh
    // pages, and their first touch cost this thread 0.25-0.45 s on the loaded development VM
    // (gui_watch_bench's worst stall, issue 12; the thread's own CPU showed little of it). A
    // pool thread makes them; this thread adopts them in a turn of its own, moving in the
    // entries it has so far (a scan's first few percent).
    constexpr int kHereUpTo = 100'000;
    if (rows <= kHereUpTo) {
        model_.reserve(rows);
        // In a turn of its own: each of the two rehashes is tens of milliseconds mid-scan.
        QTimer::singleShot(0, this, &LockRowFeed::reserveHistory);
        return;
    }
    QPointer<LockRowFeed> self(this);
    QThreadPool::globalInstance()->start([self, rows] {
        LockRowIndex::Storage indexSlots = LockRowIndex::storageFor(std::size_t(rows));
        LockHistory::Tracks tracks = LockHistory::tracksFor(std::size_t(rows));
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, rows, indexSlots = std::move(indexSlots), tracks = std::move(tracks)]() mutable {
                if (!self) return;
                self->model_.reserve(rows, std::move(indexSlots));
                self->history_.adopt(std::move(tracks));
                self->reservedTracks_ = std::max(self->reservedTracks_, std::size_t(rows));
            },
            Qt::QueuedConnection);
    });
}

void LockRowFeed::reserveHistory() {
    // Every lock that appears while watched gets a history track: a rescan that finds a
    // million new locks makes a million tracks. Sized with the table, early in the scan while
    // it holds few tracks: sizing it by the share of rows tracked so far let that share creep
    // up, and each step rehashed 700,000 to 1,000,000 tracks on this thread (about 100 ms).
    // The cost of too large a table is its bucket array, 8 bytes a lock.
    if (std::size_t(reserved_) <= reservedTracks_) return;
    reservedTracks_ = std::size_t(reserved_);
    history_.reserve(reservedTracks_);
}

void LockRowFeed::applyPending() {
    // A rescan of a large keyspace delivers tens of thousands of records per interval.
    // Applying them slices at a time, yielding to the event loop in between, keeps every
    // stall of the window short; the rest follows on the next turn of the loop. A turn does
    // one kind of work: slices for up to 8 ms (fifty connections' few records each go in one
    // turn, not one turn per connection), or the re-sort of the rows slices moved, never
    // both (a slice or a re-sort is tens of milliseconds at a million rows); while a backlog
    // lasts, the re-sort comes every 100 ms, so rows stream in already in order.
    constexpr qsizetype kSlice = 2000;
    constexpr qint64 kTurnMs = 8;
    constexpr qint64 kResortEveryMs = 100;
    const bool resortDue =
        model_.resortWaiting() &&
        (pending_.isEmpty() || !sinceResort_.isValid() || sinceResort_.elapsed() >= kResortEveryMs);
    if (resortDue) {
        model_.resortNow();
        sinceResort_.start();
    } else if (!pending_.isEmpty()) {
        QElapsedTimer turn;
        turn.start();
        do {
            const PendingLockUpdates::Slice slice = pending_.take(kSlice);
            applyUpdate(slice.instance, slice.records, slice.removed);
            settle(slice.instance);
        } while (!pending_.isEmpty() && turn.elapsed() < kTurnMs);
    }
    // Through a timer, not a posted call: posted calls run back to back before timers and
    // repaints get their turn, which would make the slices one long stall again.
    if (!pending_.isEmpty() || model_.resortWaiting())
        coalesce_.start(1);
    else if (std::exchange(trimWhenApplied_, false))
        releaseFreedMemory();
}

void LockRowFeed::settle(const QString& instance) {
    auto it = held_.find(instance);
    if (it == held_.end()) return;
    const qint64 waiting = pending_.waitingUnits(instance);
    const qint64 done = it->second - waiting;
    if (waiting == 0)
        held_.erase(it);
    else
        it->second = waiting;
    if (done > 0) emit taken(instance, done);
}

void LockRowFeed::releaseFreedMemoryWhenApplied() {
    if (pending_.isEmpty())
        releaseFreedMemory();
    else
        trimWhenApplied_ = true;
}

void LockRowFeed::releaseFreedMemory() {
#ifdef __GLIBC__
    // A scan's batches pass through the worker's and this thread's heaps; once applied, the
    // freed pages stay resident unless handed back (about 200 MB after a 1M-lock scan). On a
    // pool thread: trimming a large heap takes tens of milliseconds.
    constexpr qint64 kAtMostEveryMs = 30'000;
    if (lastTrim_.isValid() && lastTrim_.elapsed() < kAtMostEveryMs) return;
    lastTrim_.start();
    QThreadPool::globalInstance()->start([] { malloc_trim(0); });
#endif
}

void LockRowFeed::applyUpdate(const QString& instance,
                              std::span<const inspect::SharedLockRecord> changed,
                              const QStringList& removed) {
    for (const auto& r : changed)
        history_.record(LockTableModel::rowKey(instance, QString::fromStdString(r->key)), *r);
    history_.vanishedAmong(instance, removed);
    if (!removed.isEmpty()) emit rowsLeaving(instance, removed);
    model_.removeKeys(instance, removed);
    model_.apply(instance, changed, false);
    emit rowsApplied(instance, changed, removed);
}

}  // namespace lockscope::ui
