#pragma once
// The locks of one instance as a watcher knows them, keyed by key, with history: each new
// observation of a key is merged into what was seen before (first seen, last change,
// handoffs when the holder changed, renewals when the PTTL went up with the same holder).

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

class LockTable {
  public:
    // How much a PTTL may rise (measurement noise) before it counts as a renewal.
    static constexpr std::int64_t kRenewalSlackMs = 50;

    // Merges one observation. Returns true when something a view shows changed beyond the
    // countdown: a new key, another holder, a renewal, a new fence, a TTL added or removed.
    bool observe(LockRecord fresh);
    // observe(), returning the merged record as the table keeps it (its address stays the
    // same until the key is removed) and setting changed as observe() returns.
    const LockRecord& merge(LockRecord fresh, bool& changed);
    // Forgets a key; true when it was known.
    bool remove(const std::string& key);

    // Ordered by key, found by any string-like key (std::less<>: no copy to look one up).
    // The map's key is a view of the record's own key, not a second copy of it (issue 18:
    // 48 bytes a lock, 48 MB at a million); the table keeps each record's key buffer fixed.
    using Records = std::map<std::string_view, LockRecord, std::less<>>;

    LockTable() = default;
    LockTable(const LockTable& other);
    LockTable& operator=(const LockTable& other);
    LockTable(LockTable&&) noexcept = default;  // nodes move whole: the views stay valid
    LockTable& operator=(LockTable&&) noexcept = default;
    const Records& records() const { return records_; }
    std::vector<std::string> keys() const;
    std::size_t size() const { return records_.size(); }
    const LockRecord* find(std::string_view key) const;

  private:
    // Inserts a record not yet in the table, keyed by a view of its key in the node.
    LockRecord& insertNew(LockRecord record);

    Records records_;
};

}  // namespace lockscope::inspect
