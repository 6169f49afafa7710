#include <thread>

#include "lockscope/errors.h"
#include "lockscope/fenced_store.h"
#include "redis_fixture.h"

using namespace lockscope;
using lockscope::testing::TempDir;

TEST(FencedStore, StaleHolderIsRejectedAndNewerBodyStays) {
    TempDir dir;
    FencedStore store(dir.path("reports.db"));
    FencedWrite first = store.write("daily", "B's report", 2);  // B, fence 2, writes first
    EXPECT_EQ(first.status, FencedWrite::Status::Accepted);
    EXPECT_EQ(first.currentFence, 2);
    FencedWrite stale = store.write("daily", "A's report", 1);  // A wakes up with fence 1
    EXPECT_EQ(stale.status, FencedWrite::Status::Stale);
    EXPECT_EQ(stale.currentFence, 2) << "says which fence won";
    EXPECT_FALSE(stale.accepted());
    auto stored = store.read("daily");
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->body, "B's report");
    EXPECT_EQ(stored->fence, 2);
    EXPECT_TRUE(store.write("daily", "C's report", 3).accepted());
}

// Before: a bare false meant both "a newer holder wrote" and "you already wrote with this
// fence", so a retry of one's own write looked like losing the lock.
TEST(FencedStore, ARetryWithTheSameFenceIsNotStale) {
    TempDir dir;
    FencedStore store(dir.path("reports.db"));
    ASSERT_TRUE(store.write("daily", "report", 7).accepted());
    FencedWrite retry = store.write("daily", "report again", 7);
    EXPECT_EQ(retry.status, FencedWrite::Status::SameFence);
    EXPECT_EQ(retry.currentFence, 7);
    EXPECT_EQ(store.read("daily")->body, "report") << "an equal fence is not newer";
    EXPECT_STREQ(toString(retry.status), "same fence");
}

TEST(FencedStore, RunOnceIsAtMostOnceAndRunAtLeastOnceRetriesAFailedEffect) {
    TempDir dir;
    FencedStore store(dir.path("reports.db"));
    int attempts = 0;
    auto failing = [&] {
        ++attempts;
        throw std::runtime_error("mail server down");
    };
    EXPECT_THROW(store.runOnce("email:once", failing), std::runtime_error);
    EXPECT_FALSE(store.runOnce("email:once", [&] { ++attempts; })) << "the claim is used up";
    EXPECT_EQ(attempts, 1);

    attempts = 0;
    EXPECT_THROW(store.runAtLeastOnce("email:sure", failing), std::runtime_error);
    EXPECT_FALSE(store.completed("email:sure"));
    EXPECT_TRUE(store.runAtLeastOnce("email:sure", [&] { ++attempts; }));
    EXPECT_TRUE(store.completed("email:sure"));
    EXPECT_FALSE(store.runAtLeastOnce("email:sure", [&] { ++attempts; }));
    EXPECT_EQ(attempts, 2);
}

TEST(FencedStore, IsARealFileThatOutlivesTheObject) {
    TempDir dir;
    {
        FencedStore store(dir.path("reports.db"));
        EXPECT_TRUE(store.write("daily", std::string("bin\0ary", 7), 5).accepted());
    }
    FencedStore reopened(dir.path("reports.db"));
    EXPECT_EQ(reopened.read("daily")->body, std::string("bin\0ary", 7));
    EXPECT_EQ(reopened.write("daily", "old", 4).status, FencedWrite::Status::Stale);
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
