#pragma once
// The locks of one instance as a watcher knows them, keyed by key, with history: each new
// observation of a key is merged into what was seen before (first seen, last change,
// handoffs when the holder changed, renewals when the PTTL went up with the same holder).
//
// Each record is one pooled object a view may share (share()): a window showing a million
// locks then holds one copy of each record, not two (issue 18: 645 MB resident with a copy
// in the table and one in the rows). A record once handed out is never changed again: the
// next change of its key makes a new record, and an observation that changes nothing a view
// shows leaves it as it is (its PTTL still counts down from when it was read, remainingAt()).

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/block_pool.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

// A record as a table keeps it; *entry and entry-> read the record.
struct TableEntry {
    std::shared_ptr<LockRecord> record;
    const LockRecord& operator*() const { return *record; }
    const LockRecord* operator->() const { return record.get(); }
};

// The table's key for a record: the address of the record's own key (8 bytes where a
// string_view of it took 16, and no copy of it), read as a string_view. Its lowest bit (a
// RecordKey is never at an odd address) says whether the record was handed out
// (LockTable::share): that makes a node 56 bytes, one block of the nodes' pool where it took
// an 80-byte heap block (issue 37 item 7: 24 MB a million locks).
class TableKey {
  public:
    explicit TableKey(const RecordKey& key) : bits_(reinterpret_cast<std::uintptr_t>(&key)) {}
    std::string_view view() const {
        // NOLINTNEXTLINE(performance-no-int-to-ptr): a tagged pointer, the tag masked off
        return reinterpret_cast<const RecordKey*>(bits_ & ~kHandedOut)->view();
    }
    operator std::string_view() const { return view(); }  // NOLINT: reads as its key
    bool starts_with(std::string_view prefix) const { return view().starts_with(prefix); }
    friend bool operator==(const TableKey& a, std::string_view b) { return a.view() == b; }
    friend bool operator==(const TableKey& a, const RecordKey& b) { return a.view() == b.view(); }

  private:
    friend class LockTable;
    static constexpr std::uintptr_t kHandedOut = 1;
    // Shared with a view: never changed again. Ordering never reads the bit, so the map
    // may have it set on its (const) key.
    bool handedOut() const { return (bits_ & kHandedOut) != 0; }
    void markHandedOut() const { bits_ |= kHandedOut; }
    mutable std::uintptr_t bits_;
};

// Orders TableKeys and finds them by any string-like key (no copy to look one up).
struct TableKeyOrder {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const { return a < b; }
};

// How many LockKind values there are (the last one is SymfonyLock).
inline constexpr std::size_t kLockKindCount = static_cast<std::size_t>(LockKind::SymfonyLock) + 1;

// Holder changes and renewals a table has merged over its life, by the kind of the lock
// (the new record's): what the exporter's counters add up, without a record of its own per
// lock to compare passes (issue 37 item 7). They only grow; a table copied or moved keeps them.
struct ChangeCounts {
    std::array<std::uint64_t, kLockKindCount> handoffs{};
    std::array<std::uint64_t, kLockKindCount> renewals{};
};

class LockTable {
  public:
    // How much a PTTL may rise (measurement noise) before it counts as a renewal.
    static constexpr std::int64_t kRenewalSlackMs = 50;
    // How much lower than its countdown a PTTL must be to count as cut short (PEXPIRE to a
    // shorter lease): wider than a renewal's slack, as a late reply also reads lower.
    static constexpr std::int64_t kCutSlackMs = 1000;

    // Merges one observation. Returns true when something a view shows changed beyond the
    // countdown: a new key, another holder, a renewal, a TTL cut short, a new fence, a TTL
    // added or removed.
    bool observe(LockRecord fresh);
    // observe(), returning the merged record as the table keeps it (valid until the key
    // changes or is removed) and setting changed as observe() returns.
    const LockRecord& merge(LockRecord fresh, bool& changed);
    // Forgets a key; true when it was known.
    bool remove(const std::string& key);
    // The doctor's verdict on a key's record (a handed-out record is copied first).
    void setFindings(std::string_view key, std::uint32_t findings);
    // Whether the key's holder is alive (liveness_reader.h), with the findings that follow
    // from it, in one change (a handed-out record is copied first).
    void setVerdict(std::string_view key, std::shared_ptr<const HolderVerdict> liveness,
                    std::uint32_t findings);
    // The key's record for a view to keep (nullptr when unknown): from now on the table
    // replaces it rather than change it.
    std::shared_ptr<const LockRecord> share(std::string_view key);

    // Ordered by key, found by any string-like key (no copy to look one up). The map's key
    // points at the record's own key, not a second copy of it (issue 18: 48 bytes a lock,
    // 48 MB at a million); it reads as a string_view (for (auto& [key, entry] : records())).
    // Its nodes and the records come from pools of their sizes (block_pool.h).
    using Records = std::map<TableKey, TableEntry, TableKeyOrder,
                             PoolAllocator<std::pair<const TableKey, TableEntry>>>;

    LockTable() = default;
    // A copy has records of its own: two tables never share one they may change.
    LockTable(const LockTable& other);
    LockTable& operator=(const LockTable& other);
    LockTable(LockTable&&) noexcept = default;  // nodes move whole: the views stay valid
    LockTable& operator=(LockTable&&) noexcept = default;
    const Records& records() const { return records_; }
    std::vector<std::string> keys() const;
    std::size_t size() const { return records_.size(); }
    const LockRecord* find(std::string_view key) const;
    const ChangeCounts& changeCounts() const { return changes_; }
    // Moves on whenever observe()/merge() report a change, a key comes or goes, or the table
    // is replaced: what a watch derives from the whole table (its urgent keys) holds while
    // this stays. Unique across tables: a table replaced never shows a number seen before.
    std::uint64_t generation() const { return generation_; }

  private:
    // Inserts a record not yet in the table, keyed by a view of its key in the node.
    LockRecord& insertNew(LockRecord record);
    // Makes `fresh` the key's record: in place, or as a new record when handed out.
    LockRecord& replace(Records::iterator it, LockRecord fresh);

    // Counts what carryHistory() found between the old and the merged record.
    void countChange(const LockRecord& old, const LockRecord& merged);

    static std::uint64_t nextGeneration();
    void touch() { generation_ = nextGeneration(); }

    Records records_;
    ChangeCounts changes_;
    std::uint64_t generation_ = nextGeneration();
};

}  // namespace lockscope::inspect
