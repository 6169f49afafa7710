#include "lockscope/block_pool.h"

#include <algorithm>
#include <map>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
// A block in the pool is not in use: AddressSanitizer reports a read of it (a record read
// after its last owner let go) until the pool hands it out again.
#define LOCKSCOPE_POOL_POISON(block, size) ASAN_POISON_MEMORY_REGION(block, size)
#define LOCKSCOPE_POOL_UNPOISON(block, size) ASAN_UNPOISON_MEMORY_REGION(block, size)
#else
#define LOCKSCOPE_POOL_POISON(block, size) static_cast<void>(0)
#define LOCKSCOPE_POOL_UNPOISON(block, size) static_cast<void>(0)
#endif

namespace lockscope {

namespace {
// Big enough that a slab is a mapping of its own, away from the heap's small chunks; small
// enough that a table of a few locks does not reserve much.
constexpr std::size_t kSlabBytes = std::size_t{256} * 1024;
}  // namespace

BlockPool::BlockPool(std::size_t blockSize)
    : blockSize_(poolBlockSize(blockSize)),
      slabBytes_(std::max<std::size_t>(1, kSlabBytes / blockSize_) * blockSize_) {}

BlockPool::~BlockPool() {
    for (std::byte* slab : slabs_) {
        LOCKSCOPE_POOL_UNPOISON(slab, slabBytes_);
        ::operator delete(slab);
    }
}

void BlockPool::addSlab() {
    auto* slab = static_cast<std::byte*>(::operator new(slabBytes_));
    slabs_.push_back(slab);
    cursor_ = slab;
    end_ = slab + slabBytes_;
    LOCKSCOPE_POOL_POISON(slab, slabBytes_);
}

void* BlockPool::allocate() {
    const std::lock_guard lock(mutex_);
    ++inUse_;
    if (free_ != nullptr) {
        FreeBlock* block = free_;
        LOCKSCOPE_POOL_UNPOISON(block, blockSize_);
        free_ = block->next;
        return block;
    }
    if (cursor_ == end_) addSlab();
    void* block = cursor_;
    cursor_ += blockSize_;
    LOCKSCOPE_POOL_UNPOISON(block, blockSize_);
    return block;
}

void BlockPool::deallocate(void* block) noexcept {
    if (block == nullptr) return;
    const std::lock_guard lock(mutex_);
    --inUse_;
    free_ = ::new (block) FreeBlock{free_};
    LOCKSCOPE_POOL_POISON(block, blockSize_);
}

std::size_t BlockPool::blocksInUse() const {
    const std::lock_guard lock(mutex_);
    return inUse_;
}

std::size_t BlockPool::reservedBytes() const {
    const std::lock_guard lock(mutex_);
    return slabs_.size() * slabBytes_;
}

BlockPool& BlockPool::forSize(std::size_t blockSize) {
    static std::mutex mutex;
    // Never destroyed (see the header); the map owns no pool, it only finds them.
    static auto* pools =
        new std::map<std::size_t, BlockPool*>;  // NOLINT(cppcoreguidelines-owning-memory)
    const std::lock_guard lock(mutex);
    BlockPool*& pool = (*pools)[poolBlockSize(blockSize)];
    if (pool == nullptr)
        pool = new BlockPool(blockSize);  // NOLINT(cppcoreguidelines-owning-memory)
    return *pool;
}

}  // namespace lockscope
