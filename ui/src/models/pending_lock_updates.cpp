#include "models/pending_lock_updates.h"

#include <QSet>
#include <algorithm>
#include <utility>

namespace lockscope::ui {

void PendingLockUpdates::add(const QString& instance,
                             const QVector<inspect::SharedLockRecord>& changed,
                             const QStringList& removed) {
    if (changed.isEmpty() && removed.isEmpty()) return;
    Queue& queue = queues_[instance];
    if (!removed.isEmpty()) {
        forget(queue, removed);
        queue.removed += removed;
    }
    if (!changed.isEmpty()) {
        queue.batches.push_back(changed);  // implicit sharing: the worker's batch, not a copy
        queue.waiting += changed.size();
    }
}

void PendingLockUpdates::forget(Queue& queue, const QStringList& keys) {
    // A key removed after an update still pending is gone: drop the update (the set of
    // removed keys, possibly 100,000, is built only when there is such an update).
    if (queue.waiting == 0) return;
    const QSet<QString> gone(keys.begin(), keys.end());
    queue.batches.front().remove(0, std::exchange(queue.applied, 0));
    queue.waiting = 0;
    for (auto& batch : queue.batches) {
        batch.removeIf([&](const inspect::SharedLockRecord& r) {
            return gone.contains(QString::fromStdString(r->key));
        });
        queue.waiting += batch.size();
    }
    std::erase_if(queue.batches, [](const auto& batch) { return batch.isEmpty(); });
}

QStringList PendingLockUpdates::takeRemovals(const QString& instance) {
    auto it = queues_.find(instance);
    if (it == queues_.end()) return {};
    QStringList removed = std::exchange(it->removed, {});
    if (it->waiting == 0) queues_.erase(it);
    return removed;
}

qsizetype PendingLockUpdates::waitingRecords() const {
    qsizetype waiting = 0;
    for (const Queue& queue : queues_) waiting += queue.waiting;
    return waiting;
}

PendingLockUpdates::Slice PendingLockUpdates::take(qsizetype atMost) {
    Slice slice;
    if (queues_.isEmpty()) return slice;
    auto it = queues_.begin();
    Queue& queue = it.value();
    slice.instance = it.key();
    slice.removed = std::exchange(queue.removed, {});
    if (!queue.batches.empty()) {
        slice.batch = queue.batches.front();
        const qsizetype count = std::min(atMost, slice.batch.size() - queue.applied);
        slice.records = {slice.batch.constData() + queue.applied, std::size_t(count)};
        queue.applied += count;
        queue.waiting -= count;
        if (queue.applied == slice.batch.size()) {
            queue.batches.pop_front();
            queue.applied = 0;
        }
    }
    if (queue.waiting == 0) queues_.erase(it);
    return slice;
}

}  // namespace lockscope::ui
