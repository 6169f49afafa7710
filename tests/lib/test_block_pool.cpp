// The pool the lock tables take their records and nodes from: blocks of its size, reused
// once freed, counted, and safe when one thread frees what another took (a view's thread
// lets go of a record the watch made).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <set>
#include <thread>
#include <vector>

#include "lockscope/block_pool.h"

using lockscope::BlockPool;
using lockscope::PoolAllocator;

TEST(BlockPool, HandsOutDistinctAlignedBlocksAndReusesFreedOnes) {
    BlockPool pool(216);
    std::set<void*> seen;
    std::vector<void*> blocks;
    for (int i = 0; i < 5000; ++i) {  // several slabs
        void* b = pool.allocate();
        EXPECT_EQ(reinterpret_cast<std::uintptr_t>(b) % alignof(void*), 0u);
        EXPECT_TRUE(seen.insert(b).second) << "block handed out twice";
        blocks.push_back(b);
    }
    EXPECT_EQ(pool.blocksInUse(), 5000u);
    const std::size_t reserved = pool.reservedBytes();
    EXPECT_GE(reserved, 5000u * 216);
    for (void* b : blocks) pool.deallocate(b);
    EXPECT_EQ(pool.blocksInUse(), 0u);
    for (int i = 0; i < 5000; ++i) EXPECT_TRUE(seen.contains(pool.allocate()));
    EXPECT_EQ(pool.reservedBytes(), reserved) << "freed blocks are reused, not added to";
}

TEST(BlockPool, BlocksFreedOnAnotherThreadAreCountedAndReused) {
    BlockPool pool(64);
    std::vector<void*> taken(20000);
    std::thread maker([&] {
        for (auto& b : taken) b = pool.allocate();
    });
    maker.join();
    std::thread a([&] {
        for (std::size_t i = 0; i < taken.size(); i += 2) pool.deallocate(taken[i]);
    });
    std::thread b([&] {
        for (std::size_t i = 1; i < taken.size(); i += 2) pool.deallocate(taken[i]);
    });
    a.join();
    b.join();
    EXPECT_EQ(pool.blocksInUse(), 0u);
}

TEST(BlockPool, OneObjectAtATimeComesFromThePoolOfItsSize) {
    struct Record {
        char bytes[200];
    };
    PoolAllocator<Record> allocator;
    BlockPool& pool = BlockPool::forSize(sizeof(Record));
    const std::size_t before = pool.blocksInUse();
    Record* one = allocator.allocate(1);
    EXPECT_EQ(pool.blocksInUse(), before + 1);
    Record* many = allocator.allocate(3);  // arrays go to the heap
    EXPECT_EQ(pool.blocksInUse(), before + 1);
    allocator.deallocate(many, 3);
    allocator.deallocate(one, 1);
    EXPECT_EQ(pool.blocksInUse(), before);
}

#ifdef __SANITIZE_ADDRESS__
// A record read after its last owner let go is reported, as it would be on the heap.
TEST(BlockPoolDeathTest, AReadOfAFreedBlockIsReportedUnderAddressSanitizer) {
    EXPECT_DEATH(
        {
            BlockPool pool(64);
            auto* block = static_cast<volatile char*>(pool.allocate());
            block[0] = 'x';
            pool.deallocate(const_cast<char*>(block));
            std::printf("%c\n", block[8]);
        },
        "use-after-poison");
}
#endif
