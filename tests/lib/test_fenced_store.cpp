#include <thread>

#include "lockscope/errors.h"
#include "lockscope/fenced_store.h"
#include "redis_fixture.h"

using namespace lockscope;
using lockscope::testing::TempDir;

TEST(FencedStore, StaleHolderIsRejectedAndNewerBodyStays) {
    TempDir dir;
    FencedStore store(dir.path("reports.db"));
    EXPECT_TRUE(store.write("daily", "B's report", 2));   // B, fence 2, writes first
    EXPECT_FALSE(store.write("daily", "A's report", 1));  // A wakes up with fence 1
    auto stored = store.read("daily");
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->body, "B's report");
    EXPECT_EQ(stored->fence, 2);
    EXPECT_FALSE(store.write("daily", "replay", 2)) << "an equal fence is not newer";
    EXPECT_TRUE(store.write("daily", "C's report", 3));
}

TEST(FencedStore, IsARealFileThatOutlivesTheObject) {
    TempDir dir;
    {
        FencedStore store(dir.path("reports.db"));
        store.write("daily", std::string("bin\0ary", 7), 5);
    }
    FencedStore reopened(dir.path("reports.db"));
    EXPECT_EQ(reopened.read("daily")->body, std::string("bin\0ary", 7));
    EXPECT_FALSE(reopened.write("daily", "old", 4));
    EXPECT_FALSE(reopened.read("missing"));
}

TEST(FencedStore, OnceOnlyEffectHappensOnce) {
    TempDir dir;
    FencedStore store(dir.path("reports.db"));
    int emails = 0;
    std::vector<std::jthread> senders;
    for (int i = 0; i < 8; ++i)
        senders.emplace_back([&] { store.runOnce("email:2026-11-29", [&] { ++emails; }); });
    senders.clear();
    EXPECT_EQ(emails, 1);
    EXPECT_TRUE(store.runOnce("email:2026-11-30", [&] { ++emails; }));
    EXPECT_EQ(emails, 2);
    EXPECT_EQ(store.onceCount(), 2);
}

TEST(FencedStore, UnusablePathIsAStorageError) {
    EXPECT_THROW(FencedStore("/nonexistent-dir/for/sure/x.db"), StorageError);
    TempDir dir;
    std::string notADatabase = dir.path("junk.db");
    FILE* f = std::fopen(notADatabase.c_str(), "w");
    std::fputs("this is not an SQLite database, just text that is long enough to have a header", f);
    std::fclose(f);
    EXPECT_THROW(FencedStore{notADatabase}, StorageError);
}
