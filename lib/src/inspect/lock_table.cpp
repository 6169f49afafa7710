#include "lockscope/inspect/lock_table.h"

#include <algorithm>
#include <atomic>
#include <iterator>

namespace lockscope::inspect {

namespace {

// Carries the history of `old` into the observation `fresh`; true when a view would show
// something new beyond the countdown.
bool carryHistory(const LockRecord& old, LockRecord& fresh) {
    bool changed = false;
    fresh.firstSeen = old.firstSeen;
    fresh.appearedWhileWatching = old.appearedWhileWatching;
    fresh.findings = old.findings;
    fresh.leasePttlMs = std::max(old.leasePttlMs, fresh.pttlMs);
    if (fresh.sameHolder(old) && fresh.type == old.type) {
        fresh.firstPttlMs = old.firstPttlMs;
        fresh.lastChange = old.lastChange;
        fresh.handoffs = old.handoffs;
        fresh.renewals = old.renewals;
        // A read says nothing of the holder's liveness: the last verdict stands until the
        // liveness reader judges again (a new holder starts without one).
        if (!fresh.liveness) fresh.liveness = old.liveness;
        if (old.pttlMs >= 0 && fresh.pttlMs >= 0) {
            // Both readings are stamped when their read was sent; the server answered each
            // up to its read span later. Only a PTTL above what the latest possible old
            // answer leaves is a renewal (a loaded pipeline answered late is not).
            const std::int64_t expected = old.remainingAt(fresh.observedAt);
            if (fresh.pttlMs > expected + old.readSpanMs + LockTable::kRenewalSlackMs) {
                ++fresh.renewals;
                changed = true;
            }
            // Cut short: a view counting down from the old reading would show too much.
            changed =
                changed || fresh.pttlMs + fresh.readSpanMs + LockTable::kCutSlackMs < expected;
        }
    } else {
        fresh.lastChange = fresh.observedAt;
        fresh.firstPttlMs = fresh.pttlMs;
        fresh.handoffs = old.handoffs + 1;
        fresh.renewals = 0;
        changed = true;
    }
    return changed || fresh.fence != old.fence || fresh.hasTtl() != old.hasTtl() ||
           fresh.kind != old.kind || fresh.valueBytes != old.valueBytes ||
           fresh.truncated != old.truncated;
}

// A key read again keeps its key's heap buffer (a key past the record's inline capacity),
// and a holder read again as it was those of its token and fields; the fresh ones, allocated
// amid the read's replies, go with them. A record's buffers then stay where its first read
// put them, rather than one a re-read scattered among passing ones for as long as the lock
// lives (issue 37 item 7). Swapping first leaves the record with its own after the move.
void keepBuffers(LockRecord& kept, LockRecord& fresh) {
    fresh.key.swap(kept.key);  // equal keys
    if (fresh.token == kept.token) fresh.token.swap(kept.token);
    if (fresh.fields == kept.fields) fresh.fields.swap(kept.fields);
}

// A record and its control block, in one block of the records' pool (block_pool.h).
std::shared_ptr<LockRecord> pooledRecord(LockRecord record) {
    return std::allocate_shared<LockRecord>(PoolAllocator<LockRecord>(), std::move(record));
}

}  // namespace

LockTable::LockTable(const LockTable& other) : changes_(other.changes_) {
    for (const auto& [key, entry] : other.records_) insertNew(*entry);
}

std::uint64_t LockTable::nextGeneration() {
    static std::atomic<std::uint64_t> last{0};
    return ++last;
}

LockTable& LockTable::operator=(const LockTable& other) {
    if (this != &other) {
        touch();
        records_.clear();
        for (const auto& [key, entry] : other.records_) insertNew(*entry);
        changes_ = other.changes_;
    }
    return *this;
}

LockRecord& LockTable::insertNew(LockRecord record) {
    // The record lives on the heap, so its key's buffer never moves: the node's key views it.
    auto shared = pooledRecord(std::move(record));
    const TableKey key(shared->key);
    return *records_.emplace(key, TableEntry{std::move(shared)}).first->second.record;
}

LockRecord& LockTable::replace(Records::iterator it, LockRecord fresh) {
    if (!it->first.handedOut()) {
        LockRecord& kept = *it->second.record;
        keepBuffers(kept, fresh);
        kept = std::move(fresh);
        return kept;
    }
    // A view holds the old record and may read it now: a new one, and the node re-keyed
    // to view the new record's key (put back where it was, with the hint).
    const auto next = std::next(it);
    auto node = records_.extract(it);
    node.mapped() = TableEntry{pooledRecord(std::move(fresh))};
    node.key() = TableKey(node.mapped().record->key);
    return *records_.insert(next, std::move(node))->second.record;
}

bool LockTable::observe(LockRecord fresh) {
    bool changed = false;
    merge(std::move(fresh), changed);
    return changed;
}

const LockRecord& LockTable::merge(LockRecord fresh, bool& changed) {
    auto it = records_.find(fresh.key);
    if (it == records_.end()) {
        fresh.firstPttlMs = fresh.leasePttlMs = fresh.pttlMs;
        changed = true;
        touch();
        return insertNew(std::move(fresh));
    }
    changed = carryHistory(*it->second, fresh);
    if (changed) touch();
    countChange(*it->second, fresh);
    // Nothing to show: a view's record stays as it is, counting down like the key.
    if (!changed && it->first.handedOut()) return *it->second;
    return replace(it, std::move(fresh));
}

void LockTable::countChange(const LockRecord& old, const LockRecord& merged) {
    const auto kind = static_cast<std::size_t>(merged.kind);
    if (kind >= kLockKindCount) return;
    if (merged.handoffs != old.handoffs) ++changes_.handoffs[kind];
    if (merged.renewals > old.renewals) ++changes_.renewals[kind];
}

void LockTable::setFindings(std::string_view key, std::uint32_t findings) {
    auto it = records_.find(key);
    if (it == records_.end() || it->second->findings == findings) return;
    if (!it->first.handedOut()) {
        it->second.record->findings = findings;
        return;
    }
    LockRecord judged = *it->second;
    judged.findings = findings;
    replace(it, std::move(judged));
}

void LockTable::setVerdict(std::string_view key, std::shared_ptr<const HolderVerdict> liveness,
                           std::uint32_t findings) {
    auto it = records_.find(key);
    if (it == records_.end()) return;
    if (!it->first.handedOut()) {
        it->second.record->liveness = std::move(liveness);
        it->second.record->findings = findings;
        return;
    }
    LockRecord judged = *it->second;
    judged.liveness = std::move(liveness);
    judged.findings = findings;
    replace(it, std::move(judged));
}

std::shared_ptr<const LockRecord> LockTable::share(std::string_view key) {
    auto it = records_.find(key);
    if (it == records_.end()) return nullptr;
    it->first.markHandedOut();
    return it->second.record;
}

bool LockTable::remove(const std::string& key) {
    auto it = records_.find(key);
    if (it == records_.end()) return false;
    records_.erase(it);
    touch();
    return true;
}

std::vector<std::string> LockTable::keys() const {
    std::vector<std::string> out;
    out.reserve(records_.size());
    for (const auto& [k, _] : records_) out.emplace_back(k);
    return out;
}

const LockRecord* LockTable::find(std::string_view key) const {
    auto it = records_.find(key);
    return it == records_.end() ? nullptr : it->second.record.get();
}

}  // namespace lockscope::inspect
