#include "lockscope/block_pool.h"

#include <algorithm>
#include <map>

namespace lockscope {

namespace {
// Big enough that a slab's own allocation is one mmap the system can hand back whole, small
// enough that a table of a few locks does not reserve much.
constexpr std::size_t kSlabBytes = 256 * 1024;
}  // namespace

BlockPool::BlockPool(std::size_t blockSize) : blockSize_(poolBlockSize(blockSize)) {}

BlockPool::~BlockPool() {
    for (std::byte* slab : slabs_) ::operator delete(slab);
}

void BlockPool::addSlab() {
    const std::size_t blocks = std::max<std::size_t>(1, kSlabBytes / blockSize_);
    auto* slab = static_cast<std::byte*>(::operator new(blocks * blockSize_));
    slabs_.push_back(slab);
    cursor_ = slab;
    end_ = slab + blocks * blockSize_;
}

void* BlockPool::allocate() {
    const std::lock_guard lock(mutex_);
    ++inUse_;
    if (free_ != nullptr) {
        FreeBlock* block = free_;
        free_ = block->next;
        return block;
    }
    if (cursor_ == end_) addSlab();
    void* block = cursor_;
    cursor_ += blockSize_;
    return block;
}

void BlockPool::deallocate(void* block) noexcept {
    if (block == nullptr) return;
    const std::lock_guard lock(mutex_);
    --inUse_;
    free_ = ::new (block) FreeBlock{free_};
}

std::size_t BlockPool::blocksInUse() const {
    const std::lock_guard lock(mutex_);
    return inUse_;
}

std::size_t BlockPool::reservedBytes() const {
    const std::lock_guard lock(mutex_);
    return slabs_.size() * std::max<std::size_t>(1, kSlabBytes / blockSize_) * blockSize_;
}

BlockPool& BlockPool::forSize(std::size_t blockSize) {
    static std::mutex mutex;
    // Never destroyed (see the header); the map owns no pool, it only finds them.
    static auto* pools = new std::map<std::size_t, BlockPool*>;  // NOLINT(cppcoreguidelines-owning-memory)
    const std::lock_guard lock(mutex);
    BlockPool*& pool = (*pools)[poolBlockSize(blockSize)];
    if (pool == nullptr) pool = new BlockPool(blockSize);  // NOLINT(cppcoreguidelines-owning-memory)
    return *pool;
}

}  // namespace lockscope
