#include "lockscope/inspect/lock_table.h"

#include <algorithm>

namespace lockscope::inspect {

bool LockTable::observe(LockRecord fresh) {
    auto it = records_.find(fresh.key);
    if (it == records_.end()) {
        fresh.firstPttlMs = fresh.leasePttlMs = fresh.pttlMs;
        std::string key = fresh.key;
        records_.emplace(std::move(key), std::move(fresh));
        return true;
    }
    LockRecord& old = it->second;
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
    old = std::move(fresh);
    return changed;
}

bool LockTable::remove(const std::string& key) {
    return records_.erase(key) > 0;
}

std::vector<std::string> LockTable::keys() const {
    std::vector<std::string> out;
    out.reserve(records_.size());
    for (const auto& [k, _] : records_) out.push_back(k);
    return out;
}

const LockRecord* LockTable::find(const std::string& key) const {
    auto it = records_.find(key);
    return it == records_.end() ? nullptr : &it->second;
}

}  // namespace lockscope::inspect
