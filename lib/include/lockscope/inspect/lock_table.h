#pragma once
// The locks of one instance as a watcher knows them, keyed by key, with history: each new
// observation of a key is merged into what was seen before (first seen, last change,
// handoffs when the holder changed, renewals when the PTTL went up with the same holder).

#include <map>
#include <string>
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
    // Forgets a key; true when it was known.
    bool remove(const std::string& key);

    const std::map<std::string, LockRecord>& records() const { return records_; }
    std::vector<std::string> keys() const;
    std::size_t size() const { return records_.size(); }
    const LockRecord* find(const std::string& key) const;

  private:
    std::map<std::string, LockRecord> records_;
};

}  // namespace lockscope::inspect
