// LockWatch::setJudging: the window's Settings applied to a running watch. Before, a changed
// setting reopened every connection, and the rows lost their history (first seen, renewals,
// handoffs) and were read again from nothing (issue 32).

#include <string>
#include <vector>

#include "lockscope/inspect/doctor.h"
#include "lockscope/inspect/lock_shape.h"
#include "lockscope/inspect/lock_watch.h"

namespace lockscope::inspect {

WatchUpdate LockWatch::setJudging(const WatchJudging& judging) {
    const bool nonLocksAdded = judging.includeNonLocks && !options_.includeNonLocks;
    // The ordinary keys the next scan finds were there unread, not seen arriving.
    if (nonLocksAdded && !coveredBefore_) coveredBefore_ = coverage();
    options_.includeNonLocks = judging.includeNonLocks;
    options_.doctor.heldTooLong = judging.heldTooLong;
    WatchUpdate update;
    update.at = SteadyClock::now();
    // Keys are collected first: a removal or a new verdict replaces the table's record.
    std::vector<std::string> ordinary, rejudged;
    std::vector<std::uint32_t> findings;
    const Doctor doctor(options_.doctor);
    for (const auto& [key, entry] : table_.records()) {
        if (!options_.includeNonLocks && !isLockShaped(*entry)) {
            ordinary.emplace_back(key);
            continue;
        }
        const std::uint32_t now = doctor.examine(*entry, facts_, update.at);
        if (now == entry->findings) continue;
        rejudged.emplace_back(key);
        findings.push_back(now);
    }
    for (auto& key : ordinary) {
        table_.remove(key);
        update.removed.push_back(std::move(key));
    }
    for (std::size_t i = 0; i < rejudged.size(); ++i) {
        table_.setFindings(rejudged[i], findings[i]);
        update.changed.push_back(*table_.find(rejudged[i]));
    }
    if (nonLocksAdded) requestRescan();
    return update;
}

}  // namespace lockscope::inspect
