#pragma once
// Fixed-size blocks for the lock tables' long-lived objects (their records and map nodes):
// a million of them packed in large slabs, with no allocator header each and no holes.
// From malloc they took 224 and 64 bytes, and were cut from the free chunks that passing
// reads left, which left ~95 bytes a lock free among them for as long as the locks lived
// (issue 37 item 7: 1M locks, 370 bytes a lock in use and 465 resident).
//
// One pool per block size for the whole process: a record is freed wherever its last owner
// lets go (a view's thread), so the pool is locked. A freed block is kept for the next
// record of that size, never returned to the system: the tables of a server watched again
// reuse it. Under AddressSanitizer a block in the pool is poisoned: a read of a record after
// its last owner let go is reported as with the heap.

#include <cstddef>
#include <mutex>
#include <new>
#include <vector>

namespace lockscope {

class BlockPool {
  public:
    // blockSize: a multiple of a pointer's size. Slabs are aligned for any type, so a block
    // is aligned for every type whose size is a multiple of its alignment (all of them).
    explicit BlockPool(std::size_t blockSize);
    BlockPool(const BlockPool&) = delete;
    BlockPool& operator=(const BlockPool&) = delete;
    ~BlockPool();

    void* allocate();
    void deallocate(void* block) noexcept;

    // Blocks handed out and not yet given back; bytes taken from the system.
    std::size_t blocksInUse() const;
    std::size_t reservedBytes() const;

    // The process's pool of blocks of this size (made on first use, never destroyed: a
    // record may outlive every static object that could own the pool).
    static BlockPool& forSize(std::size_t blockSize);

  private:
    struct FreeBlock {
        FreeBlock* next;
    };
    void addSlab();

    const std::size_t blockSize_;
    const std::size_t slabBytes_;  // a whole number of blocks
    mutable std::mutex mutex_;
    FreeBlock* free_ = nullptr;
    std::byte* cursor_ = nullptr;  // the unused rest of the newest slab
    std::byte* end_ = nullptr;
    std::vector<std::byte*> slabs_;
    std::size_t inUse_ = 0;
};

// Rounds a size up to the pool's block granularity (a pointer: a 216-byte record takes 216).
constexpr std::size_t poolBlockSize(std::size_t bytes) {
    constexpr std::size_t grain = sizeof(void*);
    return (bytes < grain ? grain : bytes + grain - 1) / grain * grain;
}

// An allocator that takes single objects from the pool of their size (the std::map nodes
// and std::allocate_shared blocks of a lock table) and arrays from the heap. Stateless, so
// a shared_ptr's control block keeps no copy of it.
template <class T>
class PoolAllocator {
  public:
    using value_type = T;
    PoolAllocator() = default;
    template <class U>
    PoolAllocator(const PoolAllocator<U>&) noexcept {}  // NOLINT: rebinding, as std::allocator

    T* allocate(std::size_t n) {
        static_assert(alignof(T) <= alignof(std::max_align_t));
        if (n != 1) return static_cast<T*>(::operator new(n * sizeof(T)));
        return static_cast<T*>(pool().allocate());
    }
    void deallocate(T* p, std::size_t n) noexcept {
        if (n != 1) return ::operator delete(p);
        pool().deallocate(p);
    }
    template <class U>
    bool operator==(const PoolAllocator<U>&) const noexcept {
        return true;
    }

  private:
    static BlockPool& pool() {
        static BlockPool& instance = BlockPool::forSize(poolBlockSize(sizeof(T)));
        return instance;
    }
};

}  // namespace lockscope
