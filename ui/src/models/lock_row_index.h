#pragma once
// Finds a lock table row's id from its (instance, key) without keeping a copy of either: the
// rows already hold both in their records. Each entry is a 64-bit hash of the pair and the
// id (about 40 bytes with the node and its bucket), and a lookup confirms a candidate against
// the row itself. A QString "instance\nkey" per row and in the index cost the table about
// 170 bytes a row, 170 MB at a million rows (issue 18).

#include <cstdint>
#include <functional>
#include <string_view>
#include <unordered_map>

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
    void reserve(std::size_t rows) { ids_.reserve(rows); }
    void clear() { ids_.clear(); }
    std::size_t size() const { return ids_.size(); }

    static std::uint64_t hashOf(std::string_view instance, std::string_view key);

  private:
    std::unordered_multimap<std::uint64_t, int> ids_;
    Matches matches_;
};

}  // namespace lockscope::ui
