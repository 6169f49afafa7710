#include "models/lock_row_index.h"

#include <algorithm>
#include <utility>

namespace lockscope::ui {
namespace {

constexpr int kMinBits = 4;
// At most 70% full: linear probing stays short (about 2 probes for a hit).
bool tooFull(std::size_t entries, std::size_t slotCount) {
    return entries * 10 > slotCount * 7;
}

}  // namespace

std::uint64_t LockRowIndex::hashOf(std::string_view instance, std::string_view key) {
    const std::uint64_t h = std::hash<std::string_view>{}(key);
    // boost::hash_combine's mixing: rows of two instances with one key differ.
    return h ^
           (std::hash<std::string_view>{}(instance) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

int LockRowIndex::find(std::string_view instance, std::string_view key) const {
    if (size_ == 0) return -1;
    const auto tag = std::uint32_t(hashOf(instance, key) >> 32);
    for (std::size_t s = home(tag); slots_[s].id >= 0; s = next(s))
        if (slots_[s].tag == tag && matches_(slots_[s].id, instance, key)) return slots_[s].id;
    return -1;
}

void LockRowIndex::insert(std::string_view instance, std::string_view key, int id) {
    if (slots_.empty() || tooFull(size_ + 1, slots_.size())) growTo(std::max(kMinBits, bits_ + 1));
    place({std::uint32_t(hashOf(instance, key) >> 32), id});
    ++size_;
}

void LockRowIndex::place(Slot slot) {
    std::size_t s = home(slot.tag);
    while (slots_[s].id >= 0) s = next(s);
    slots_[s] = slot;
}

void LockRowIndex::erase(std::string_view instance, std::string_view key, int id) {
    if (size_ == 0) return;
    const auto tag = std::uint32_t(hashOf(instance, key) >> 32);
    std::size_t hole = home(tag);
    for (; slots_[hole].id >= 0; hole = next(hole))
        if (slots_[hole].id == id) break;
    if (slots_[hole].id < 0) return;  // not there
    // Backward shift: later entries of the run whose home is not after the hole move into
    // it, so a lookup never stops early at an empty slot (no tombstones).
    for (std::size_t s = next(hole); slots_[s].id >= 0; s = next(s)) {
        // Movable when the hole lies on its probe path, from its home to where it is.
        const std::size_t mask = slots_.size() - 1, want = home(slots_[s].tag);
        if (((hole - want) & mask) >= ((s - want) & mask)) continue;
        slots_[hole] = slots_[s];
        hole = s;
    }
    slots_[hole] = Slot{};
    --size_;
}

void LockRowIndex::reserve(std::size_t rows) {
    int bits = std::max(kMinBits, bits_);
    while (tooFull(rows, std::size_t(1) << bits)) ++bits;
    if (bits > bits_) growTo(bits);
}

LockRowIndex::Storage LockRowIndex::storageFor(std::size_t rows) {
    int bits = kMinBits;
    while (tooFull(rows, std::size_t(1) << bits)) ++bits;
    return Storage(std::size_t(1) << bits);
}

void LockRowIndex::adopt(Storage storage) {
    if (storage.size() <= slots_.size()) return;
    Storage old = std::exchange(slots_, std::move(storage));
    bits_ = 0;
    while ((std::size_t(1) << bits_) < slots_.size()) ++bits_;
    for (const Slot& slot : old)
        if (slot.id >= 0) place(slot);
}

void LockRowIndex::growTo(int bits) {
    std::vector<Slot> old = std::exchange(slots_, std::vector<Slot>(std::size_t(1) << bits));
    bits_ = bits;
    for (const Slot& slot : old)
        if (slot.id >= 0) place(slot);
}

void LockRowIndex::clear() {
    slots_.clear();
    slots_.shrink_to_fit();
    bits_ = 0;
    size_ = 0;
}

}  // namespace lockscope::ui
