#include "lockscope/inspect/lock_table.h"

#include <algorithm>

namespace lockscope::inspect {

LockTable::LockTable(const LockTable& other) {
    for (const auto& [key, record] : other.records_) insertNew(record);
}

LockTable& LockTable::operator=(const LockTable& other) {
    if (this != &other) {
        records_.clear();
        for (const auto& [key, record] : other.records_) insertNew(record);
    }
    return *this;
}

LockRecord& LockTable::insertNew(LockRecord record) {
    // The record moves into its node first (built in a map of its own: an empty key may be
    // a real key here); only then does its key have its final address (a short key lives
    // inside the string object), and the node's key is pointed at it.
    Records builder;
    auto node = builder.extract(builder.emplace(std::string_view(), std::move(record)).first);
    node.key() = node.mapped().key;
    return records_.insert(std::move(node)).position->second;
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
        return insertNew(std::move(fresh));
    }
    LockRecord& old = it->second;
    changed = false;
    fresh.firstSeen = old.firstSeen;
    fresh.appearedWhileWatching = old.appearedWhileWatching;
    fresh.findings = old.findings;
    fresh.leasePttlMs = std::max(old.leasePttlMs, fresh.pttlMs);
    if (fresh.sameHolder(old) && fresh.type == old.type) {
        fresh.firstPttlMs = old.firstPttlMs;
        fresh.lastChange = old.lastChange;
        fresh.handoffs = old.handoffs;
        fresh.renewals = old.renewals;
        if (old.pttlMs >= 0 && fresh.pttlMs >= 0 &&
            fresh.pttlMs > old.remainingAt(fresh.observedAt) + kRenewalSlackMs) {
            ++fresh.renewals;
            changed = true;
        }
    } else {
        fresh.lastChange = fresh.observedAt;
        fresh.firstPttlMs = fresh.pttlMs;
        fresh.handoffs = old.handoffs + 1;
        fresh.renewals = 0;
        changed = true;
    }
    changed = changed || fresh.fence != old.fence || fresh.hasTtl() != old.hasTtl() ||
              fresh.kind != old.kind;
    // The node's key views old.key's buffer: keep that buffer (equal keys, so moving the old
    // string into the new record and the record back leaves the view valid).
    fresh.key = std::move(old.key);
    old = std::move(fresh);
    return old;
}

bool LockTable::remove(const std::string& key) {
    return records_.erase(key) > 0;
}

std::vector<std::string> LockTable::keys() const {
    std::vector<std::string> out;
    out.reserve(records_.size());
    for (const auto& [k, _] : records_) out.emplace_back(k);
    return out;
}

const LockRecord* LockTable::find(std::string_view key) const {
    auto it = records_.find(key);
    return it == records_.end() ? nullptr : &it->second;
}

}  // namespace lockscope::inspect
