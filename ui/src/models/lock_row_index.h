#pragma once
// Finds a lock table row's id from its (instance, key) without keeping a copy of either: the
// rows already hold both in their records. A flat open-addressing table (linear probing) of
// 8-byte slots: the top 32 bits of the pair's 64-bit hash and the id. A lookup confirms a
// tag match against the row itself. The slot's place is read from its tag, so growing the
// table never hashes a key again nor touches a row: one pass over a flat array, not a walk
// over a million nodes (issues 12 and 18). About 16 bytes a row with the table at most 70%
// full; the node map before cost 40 (and a QString "instance\nkey" per row 170 before that).

#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

namespace lockscope::ui {

class LockRowIndex {
  public:
    // Whether the row with this id is (instance, key): confirms a hash match.
    using Matches = std::function<bool(int id, std::string_view instance, std::string_view key)>;

    explicit LockRowIndex(Matches matches) : matches_(std::move(matches)) {}

    // The id of the row (instance, key), or -1.
    int find(std::string_view instance, std::string_view key) const;
    void insert(std::string_view instance, std::string_view key, int id);
    void erase(std::string_view instance, std::string_view key, int id);
    // Room for this many rows without growing.
    void reserve(std::size_t rows);
    void clear();
    std::size_t size() const { return size_; }

    static std::uint64_t hashOf(std::string_view instance, std::string_view key);

    struct Slot {
        std::uint32_t tag = 0;  // the hash's top 32 bits
        std::int32_t id = -1;   // -1: empty
    };
    // Empty slots for this many rows, allocated and written by whichever thread calls it:
    // the first touch of 16 MB of fresh pages cost the GUI thread 0.25-0.45 s on the loaded
    // development VM (issue 12), so a pool thread does it and the index adopts the slots.
    using Storage = std::vector<Slot>;
    static Storage storageFor(std::size_t rows);
    // Moves the entries into `storage` when it is larger than the slots in use.
    void adopt(Storage storage);

  private:
    std::size_t home(std::uint32_t tag) const { return std::size_t(tag) >> (32 - bits_); }
    std::size_t next(std::size_t slot) const { return (slot + 1) & (slots_.size() - 1); }
    void growTo(int bits);
    void place(Slot slot);

    std::vector<Slot> slots_;  // a power of two of them, or none
    int bits_ = 0;             // log2(slots_.size())
    std::size_t size_ = 0;
    Matches matches_;
};

}  // namespace lockscope::ui
