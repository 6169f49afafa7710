// LockTableModel, keeping its rows: applying snapshots from the workers and removal. The
// display order is lock_table_model_order.cpp, lookups lock_table_model_lookup.cpp, the rows'
// presentation lock_table_model.cpp.

#include <QMetaMethod>
#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "models/lock_row_compare.h"
#include "models/lock_table_model.h"
#include "support/pool_run.h"

namespace lockscope::ui {

void LockTableModel::apply(const QString& instance, std::span<const Record> records,
                           bool complete) {
    std::vector<SharedRecord> copies;
    copies.reserve(records.size());
    for (const Record& r : records) copies.push_back(std::make_shared<const Record>(r));
    apply(instance, std::span<const SharedRecord>(copies), complete);
}

void LockTableModel::apply(const QString& instance, std::span<const SharedRecord> records,
                           bool complete) {
    instances_.insert(instance);
    const std::string instanceName = instance.toStdString();
    std::unordered_set<int> seen;
    // New rows by their place in `records`, not copies: a rescan's slice is thousands of
    // records, each with strings and fields, and copying them here was a third of the slice.
    std::vector<std::size_t> added;
    std::unordered_map<std::string_view, std::size_t> addedAt;  // a key twice is one new row
    addedAt.reserve(records.size());
    std::vector<int> changed, moved;
    for (const SharedRecord& shared : records) {
        const Record& rec = *shared;
        const int id = idOf(instanceName, rec.key);
        if (id < 0) {
            const auto place = std::size_t(&shared - records.data());
            auto [at, fresh] = addedAt.emplace(rec.key, added.size());
            if (fresh)
                added.push_back(place);
            else
                added[at->second] = place;  // the later record of the key wins
            continue;
        }
        if (complete) seen.insert(id);
        Row& row = slots_[std::size_t(id)];
        if (std::exchange(row.goneWhileHeld, false)) std::erase(heldRemovals_, id);  // back
        bool handedOff = !row.record->sameHolder(rec);
        if (sortColumn_ >= 0 && compareLockRecords(*row.record, rec, sortColumn_) != 0)
            moved.push_back(id);
        row.record = shared;
        ownedBy(row.record, instanceName);
        if (numericSort_) keys_[std::size_t(id)].value = numericSortKey(rec, sortColumn_);
        row.largestPttl = handedOff ? rec.pttlMs : std::max(row.largestPttl, rec.pttlMs);
        if (handedOff) {
            row.highlightedAt = now_();
            emit handoff(instance, QString::fromStdString(rec.key));
        }
        changed.push_back(order_.positionOf(id));
    }
    emitChanged(std::move(changed));
    // Rows of the instance that a complete set leaves out (found before the new rows exist).
    std::vector<int> gone;
    if (complete) {
        gone = idsOfInstance(instanceName);
        std::erase_if(gone, [&](int id) { return seen.count(id) > 0; });
    }
    appendNewRows(instance, records, added, moved);
    keepSorted(moved);
    removeOrHold(gone);
}

void LockTableModel::appendNewRows(const QString& instance, std::span<const SharedRecord> records,
                                   const std::vector<std::size_t>& added, std::vector<int>& moved) {
    if (added.empty()) return;
    const int first = order_.size();
    std::vector<int> ids;
    ids.reserve(added.size());
    const std::string instanceName = instance.toStdString();
    beginInsertRows({}, first, first + int(added.size()) - 1);
    for (std::size_t place : added) {
        const Record& rec = *records[place];
        int id = allocate(Row{records[place], rec.pttlMs, {}});
        ownedBy(slots_[std::size_t(id)].record, instanceName);
        keys_[std::size_t(id)] = {numericSort_ ? numericSortKey(rec, sortColumn_) : 0, ++arrivals_};
        index_.insert(instanceName, rec.key, id);
        ids.push_back(id);
    }
    order_.append(ids);
    rowsPerInstance_[instanceName] += int(ids.size());
    endInsertRows();
    // New rows arrive at the end, one contiguous insert; keepSorted() moves them in place.
    if (sortColumn_ >= 0) moved.insert(moved.end(), ids.begin(), ids.end());
}

void LockTableModel::reserve(int rows) {
    if (rows <= int(index_.size())) return;
    index_.reserve(std::size_t(rows));
    keys_.reserve(std::size_t(rows));
}

void LockTableModel::reserve(int rows, LockRowIndex::Storage indexSlots) {
    index_.adopt(std::move(indexSlots));
    reserve(rows);
}

int LockTableModel::allocate(Row row) {
    if (freeSlots_.empty()) {
        slots_.push_back(std::move(row));
        keys_.emplace_back();
        return int(slots_.size()) - 1;
    }
    int id = freeSlots_.back();
    freeSlots_.pop_back();
    slots_[std::size_t(id)] = std::move(row);
    return id;
}

void LockTableModel::removeOrHold(const std::vector<int>& ids) {
    if (!orderHeld_) {
        removeIds(ids);
        return;
    }
    std::vector<int> greyed;
    for (int id : ids) {
        Row& row = slots_[std::size_t(id)];
        if (std::exchange(row.goneWhileHeld, true)) continue;
        heldRemovals_.push_back(id);
        greyed.push_back(order_.positionOf(id));
    }
    emitChanged(std::move(greyed));
}

void LockTableModel::emitChanged(std::vector<int> positions) {
    if (positions.empty()) return;
    std::sort(positions.begin(), positions.end());
    // One signal per run of neighbouring rows; past a few hundred runs one signal over the
    // span costs a view less than the signals would.
    constexpr std::size_t kMaxRuns = 256;
    std::vector<std::pair<int, int>> runs;
    for (int p : positions) {
        if (!runs.empty() && p <= runs.back().second + 1)
            runs.back().second = std::max(runs.back().second, p);
        else
            runs.emplace_back(p, p);
        if (runs.size() > kMaxRuns) {
            emit dataChanged(index(positions.front(), 0), index(positions.back(), ColumnCount - 1));
            return;
        }
    }
    for (auto [first, last] : runs) emit dataChanged(index(first, 0), index(last, ColumnCount - 1));
}

void LockTableModel::removeKey(const QString& instance, const QString& key) {
    removeKeys(instance, {key});
}

void LockTableModel::removeKeys(const QString& instance, const QStringList& keys,
                                bool evenWhileHeld) {
    std::vector<int> ids;
    const std::string instanceName = instance.toStdString();
    for (const QString& key : keys) {
        const int id = idOf(instanceName, key.toStdString());
        if (id >= 0) ids.push_back(id);
    }
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    if (evenWhileHeld)
        removeIds(ids);
    else
        removeOrHold(ids);
}

void LockTableModel::removeInstance(const QString& instance) {
    instances_.remove(instance);
    staleSince_.erase(instance.toStdString());
    nodeDescriptions_.erase(instance.toStdString());  // a closed node is no longer watched
    removeIds(idsOfInstance(instance.toStdString()));
}

void LockTableModel::removeRowsOf(const QString& instance) {
    removeIds(idsOfInstance(instance.toStdString()));
}

void LockTableModel::ownedBy(SharedRecord& record, const std::string& instance) {
    // The row's identity is its record's instance: records from a worker carry it already
    // (one string shared by a whole scan); others get a copy with one shared string per
    // instance (a shared record is never changed).
    if (record->instanceName() == instance) return;
    auto& shared = instanceStrings_[instance];
    if (!shared) shared = std::make_shared<const std::string>(instance);
    auto owned = std::make_shared<Record>(*record);
    owned->instance = shared;
    record = std::move(owned);
}

void LockTableModel::countRowGone(const std::string& instance) {
    auto it = rowsPerInstance_.find(instance);
    if (it != rowsPerInstance_.end() && --it->second <= 0) rowsPerInstance_.erase(it);
}

void LockTableModel::removeIds(const std::vector<int>& ids) {
    if (ids.empty()) return;
    const int count = int(ids.size());
    if (count == order_.size()) {
        removeAll();
        return;
    }
    // Scattered rows are first gathered at the tail, so a view sees one removal, not one
    // per row (each costs it O(rows)).
    if (!order_.atTail(ids)) relayout([&] { order_.moveToTail(ids); });
    const int first = order_.size() - count;
    QVector<QPair<QString, QString>> removed;
    const bool announce = vanishedIsConnected();
    if (announce) removed.reserve(count);
    beginRemoveRows({}, first, order_.size() - 1);
    for (int id : ids) {
        Row& row = slots_[std::size_t(id)];
        const Record& r = *row.record;
        if (announce)
            removed.append({QString::fromStdString(r.instanceName()),
                            QString::fromUtf8(r.key.data(), qsizetype(r.key.size()))});
        index_.erase(r.instanceName(), r.key, id);
        countRowGone(r.instanceName());
        row = Row{};
        freeSlots_.push_back(id);
    }
    order_.popTail(count);
    endRemoveRows();
    // Rows removed outright (their instance closed) while others waited for the hold's end.
    if (!heldRemovals_.empty())
        std::erase_if(heldRemovals_,
                      [this](int id) { return !slots_[std::size_t(id)].goneWhileHeld; });
    for (const auto& [instance, key] : removed) emit vanished(instance, key);
}

bool LockTableModel::vanishedIsConnected() const {
    // 100,000 (instance, key) pairs cost a restart's reconciliation tens of milliseconds:
    // built only for a listener.
    return isSignalConnected(QMetaMethod::fromSignal(&LockTableModel::vanished));
}

void LockTableModel::removeAll() {
    // Every row goes (a watched server restarted empty): one reset costs a view and its proxy
    // less than gathering and removing 100,000 rows, which stalled the window for a second.
    QVector<QPair<QString, QString>> removed;
    beginResetModel();
    if (vanishedIsConnected()) {
        removed.reserve(order_.size());
        for (int p = 0; p < order_.size(); ++p) {
            const Record& r = *rowAt(p).record;
            removed.append({QString::fromStdString(r.instanceName()),
                            QString::fromUtf8(r.key.data(), qsizetype(r.key.size()))});
        }
    }
    order_.popTail(order_.size());
    rowsPerInstance_.clear();
    freeOffThisThread(std::exchange(slots_, {}));
    keys_.clear();
    freeSlots_.clear();
    unsorted_.clear();
    heldRemovals_.clear();
    index_.clear();
    endResetModel();
    for (const auto& [instance, key] : removed) emit vanished(instance, key);
}

void LockTableModel::freeOffThisThread(std::deque<Row> rows) {
    // Freeing a restarted server's 100,000 rows (their records' strings and fields) took 31 ms
    // of the GUI thread, the largest part of the restart's stall (gui_restart_bench). The rows
    // are no longer reachable from here and their records are immutable: a pool thread frees
    // them (runOnPool makes the hand-over visible to ThreadSanitizer).
    runOnPool([doomed = std::move(rows)]() mutable { doomed.clear(); });
}

}  // namespace lockscope::ui
