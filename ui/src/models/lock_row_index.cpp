#include "models/lock_row_index.h"

namespace lockscope::ui {

std::uint64_t LockRowIndex::hashOf(std::string_view instance, std::string_view key) {
    const std::uint64_t h = std::hash<std::string_view>{}(key);
    // boost::hash_combine's mixing: rows of two instances with one key differ.
    return h ^
           (std::hash<std::string_view>{}(instance) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

int LockRowIndex::find(std::string_view instance, std::string_view key) const {
    auto [first, last] = ids_.equal_range(hashOf(instance, key));
    for (auto it = first; it != last; ++it)
        if (matches_(it->second, instance, key)) return it->second;
    return -1;
}

void LockRowIndex::insert(std::string_view instance, std::string_view key, int id) {
    ids_.emplace(hashOf(instance, key), id);
}

void LockRowIndex::erase(std::string_view instance, std::string_view key, int id) {
    auto [first, last] = ids_.equal_range(hashOf(instance, key));
    for (auto it = first; it != last; ++it)
        if (it->second == id) {
            ids_.erase(it);
            return;
        }
}

}  // namespace lockscope::ui
