#include "models/pending_lock_updates.h"

#include <algorithm>
#include <utility>

namespace lockscope::ui {

void PendingLockUpdates::add(const QString& instance,
                             const QVector<inspect::SharedLockRecord>& changed,
                             const QStringList& removed) {
    if (changed.isEmpty() && removed.isEmpty()) return;
    Queue& queue = queues_[instance];
    // In the order the worker saw them: its removals came before the records it read after.
    for (const QString& key : removed) queue.remove(key);
    for (const auto& record : changed) queue.put(record);
    if (queue.isEmpty()) queues_.erase(instance);
}

void PendingLockUpdates::Queue::put(const inspect::SharedLockRecord& record) {
    if (!removedKeys.empty() && removedKeys.erase(record->key) > 0) removedStale = true;
    auto it = waiting.find(record->key);
    if (it == waiting.end()) {
        waiting.emplace(record->key, firstSeq + order.size());
        order.push_back(record);
        return;
    }
    // The newer record replaces the waiting one in its place; the map's key views the
    // record that waits, so it is re-pointed at the new record's key (no allocation).
    inspect::SharedLockRecord& slot = order[std::size_t(it->second - firstSeq)];
    auto node = waiting.extract(it);
    slot = record;
    node.key() = slot->key;
    waiting.insert(std::move(node));
}

void PendingLockUpdates::Queue::cancel(const std::string& key) {
    auto it = waiting.find(key);
    if (it == waiting.end()) return;
    const std::uint64_t seq = it->second;
    waiting.erase(it);
    order[std::size_t(seq - firstSeq)].reset();  // the map no longer views it
}

void PendingLockUpdates::Queue::remove(const QString& key) {
    std::string name = key.toStdString();
    cancel(name);
    // Still sent: the row may be shown already. Once per key, however often it is reported.
    if (removedKeys.insert(std::move(name)).second) removed << key;
}

QStringList PendingLockUpdates::Queue::takeRemoved() {
    QStringList out = std::exchange(removed, {});
    if (std::exchange(removedStale, false))
        out.removeIf([this](const QString& key) { return !removedKeys.count(key.toStdString()); });
    removedKeys.clear();
    return out;
}

std::vector<inspect::SharedLockRecord> PendingLockUpdates::Queue::takeFront(qsizetype atMost) {
    std::vector<inspect::SharedLockRecord> out;
    out.reserve(std::size_t(std::min<qsizetype>(atMost, qsizetype(waiting.size()))));
    while (!order.empty() && qsizetype(out.size()) < atMost) {
        inspect::SharedLockRecord record = std::move(order.front());
        order.pop_front();
        ++firstSeq;
        if (!record) continue;  // cancelled
        waiting.erase(record->key);
        out.push_back(std::move(record));
    }
    // Cancelled entries left at the front would keep no row but still take memory.
    while (!order.empty() && !order.front()) order.pop_front(), ++firstSeq;
    return out;
}

void PendingLockUpdates::drop(const QString& instance) {
    queues_.erase(instance);
}

QStringList PendingLockUpdates::takeRemovals(const QString& instance) {
    auto it = queues_.find(instance);
    if (it == queues_.end()) return {};
    QStringList removed = it->second.takeRemoved();
    if (it->second.isEmpty()) queues_.erase(it);
    return removed;
}

void PendingLockUpdates::forgetKeys(const QString& instance, const QStringList& keys) {
    auto it = queues_.find(instance);
    if (it == queues_.end()) return;
    for (const QString& key : keys) it->second.cancel(key.toStdString());
    if (it->second.isEmpty()) queues_.erase(it);
}

qsizetype PendingLockUpdates::waitingRecords() const {
    qsizetype waiting = 0;
    for (const auto& [instance, queue] : queues_) waiting += qsizetype(queue.waiting.size());
    return waiting;
}

qsizetype PendingLockUpdates::waitingUnits(const QString& instance) const {
    auto it = queues_.find(instance);
    if (it == queues_.end()) return 0;
    return qsizetype(it->second.waiting.size()) + qsizetype(it->second.removedKeys.size());
}

PendingLockUpdates::Slice PendingLockUpdates::take(qsizetype atMost) {
    Slice slice;
    if (queues_.empty()) return slice;
    auto it = queues_.upper_bound(lastServed_);
    if (it == queues_.end()) it = queues_.begin();
    lastServed_ = it->first;
    Queue& queue = it->second;
    slice.instance = it->first;
    slice.removed = queue.takeRemoved();
    slice.records = queue.takeFront(atMost);
    if (queue.isEmpty()) queues_.erase(it);
    return slice;
}

}  // namespace lockscope::ui
