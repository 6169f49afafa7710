// The formats beyond the first six, judged from single keys (pure functions). The values are
// the ones each library writes; the files that write them are cited in
// lib/src/inspect/formats/library_shapes.cpp.

#include <gtest/gtest.h>

#include "lockscope/inspect/value_classifier.h"

using namespace lockscope::inspect;

namespace {
std::string resourceOf(std::string_view key) {
    auto [offset, length] = resourceSpan(key);
    return std::string(key.substr(offset, length));
}
}  // namespace

TEST(LibraryFormats, ShedLockByItsValueWithAndWithoutTheUuid) {
    EXPECT_EQ(
        classifyString("job-lock:default:nightly", "ADDED:2026-12-01T00:35:31.006Z@build-7", false),
        LockKind::ShedLock);
    EXPECT_EQ(classifyString("job-lock:prod:nightly",
                             "ADDED:2026-12-01T00:35:31.006Z@build-7:"
                             "1b4e28ba-2fa1-41d2-883f-0016d3cca427",
                             false),
              LockKind::ShedLock);
    EXPECT_EQ(resourceOf("job-lock:default:nightly"), "nightly");
    EXPECT_EQ(classifyString("job-lock:default:x", "ADDED:", false), LockKind::Unknown);
    EXPECT_EQ(classifyString("job-lock:default:x", "ADDED:@", false), LockKind::Unknown);
}

TEST(LibraryFormats, LaravelBehindAnyPrefixWhateverTheOwner) {
    EXPECT_EQ(classifyString("laravel_database_laravel_cache_laravel_unique_job:App\\Jobs\\Sync:42",
                             "aB3dE5gH7jK9mN1p", false),
              LockKind::Laravel);
    EXPECT_EQ(classifyString("myapp:laravel-queue-overlap:App\\Jobs\\Sync:tenant-9",
                             "aB3dE5gH7jK9mN1p", false),
              LockKind::Laravel);
    EXPECT_EQ(resourceOf("p_laravel_unique_job:App\\Jobs\\Sync:42"), "App\\Jobs\\Sync:42");
    // 16 alphanumerics alone are not Laravel: the key shape decides.
    EXPECT_EQ(classifyString("job", "aB3dE5gH7jK9mN1p", false), LockKind::Unknown);
}

TEST(LibraryFormats, SidekiqDigestKeysOfEveryTypeAndTheSharedSetsAreNoLocks) {
    const std::string d = "uniquejobs:6e47d668ad9db46c8e0a79c2d7f7e3c9";
    EXPECT_EQ(classifyHash(d + ":LOCKED", {{"2f4a9c1e8b7d6a5f4e3d2c1b", "1764549331.1234"}}),
              LockKind::SidekiqUniqueJobs);
    EXPECT_EQ(classifyOther(d + ":QUEUED", ValueType::List), LockKind::SidekiqUniqueJobs);
    EXPECT_EQ(classifyOther(d + ":PRIMED", ValueType::List), LockKind::SidekiqUniqueJobs);
    EXPECT_EQ(classifyString(d + ":INFO", R"({"worker":"SyncJob"})", false),
              LockKind::SidekiqUniqueJobs);
    EXPECT_EQ(classifyString(d, "2f4a9c1e8b7d6a5f4e3d2c1b", false), LockKind::SidekiqUniqueJobs);
    EXPECT_EQ(classifyHash(d + ":RUN:LOCKED", {{"2f4a9c1e8b7d6a5f4e3d2c1b", "1764549331"}}),
              LockKind::SidekiqUniqueJobs);
    EXPECT_EQ(classifyOther("uniquejobs:digests", ValueType::ZSet), LockKind::NotALock);
    EXPECT_EQ(classifyOther("uniquejobs:expiring_digests", ValueType::ZSet), LockKind::NotALock);
    EXPECT_EQ(classifyOther("uniquejobs:changelog", ValueType::ZSet), LockKind::NotALock);
    // v9: <digest>:LOCKED under the app's own digest prefix.
    EXPECT_EQ(classifyHash("myapp:digest-1:LOCKED", {{"2f4a9c1e8b7d6a5f4e3d2c1b", "1764549331.5"}}),
              LockKind::SidekiqUniqueJobs);
    EXPECT_EQ(classifyHash("profile:LOCKED", {{"name", "alice"}}), LockKind::Unknown);
    EXPECT_EQ(resourceOf(d + ":LOCKED"), d);
    EXPECT_EQ(resourceOf(d + ":RUN:QUEUED"), d + ":RUN");
}

TEST(LibraryFormats, RedlockNetPotteryCeleryOnceActiveJobUniqueness) {
    EXPECT_EQ(classifyString("redlock-orders/17", "3f2504e0-4f89-11d3-9a0c-0305e82c3301", false),
              LockKind::RedlockNet);
    EXPECT_EQ(classifyString("redlock:printer", "7f9c2b1e-1111-4222-8333-444455556666", false),
              LockKind::Pottery);
    // pottery writes uuid4: another version under redlock: is not pottery.
    EXPECT_EQ(classifyString("redlock:printer", "7f9c2b1e-1111-1222-8333-444455556666", false),
              LockKind::Uuid);
    EXPECT_EQ(classifyString("qo_tasks.add_a-1_b-2", "a8098c1af86e11dabd1a00112444be1e", false),
              LockKind::CeleryOnce);
    EXPECT_EQ(classifyString("qo_tasks.add_a-1_b-2", "1764549391", false), LockKind::CeleryOnce);
    EXPECT_EQ(classifyString("activejob_uniqueness:sync_job:0cc175b9c0f1b6a831c399e269772661",
                             "9a1f6e0c-8f2b-4c3d-9e4f-5a6b7c8d9e0f", false),
              LockKind::ActiveJobUniqueness);
    EXPECT_EQ(
        classifyString("activejob_uniqueness:sync_job:0cc175b9c0f1b6a831c399e269772661:runtime",
                       "9a1f6e0c-8f2b-4c3d-9e4f-5a6b7c8d9e0f", false),
        LockKind::ActiveJobUniqueness);
    EXPECT_EQ(resourceOf("redlock-orders/17"), "orders/17");
    EXPECT_EQ(resourceOf("redlock:printer"), "printer");
    EXPECT_EQ(resourceOf("qo_tasks.add_a-1"), "tasks.add_a-1");
}

TEST(LibraryFormats, RedissonReadWriteLockAndItsLeaseKeys) {
    const std::string c = "6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b";
    EXPECT_EQ(classifyHash("stock", {{"mode", "read"}, {c + ":57", "2"}, {c + ":58", "1"}}),
              LockKind::RedissonReadWriteLock);
    EXPECT_EQ(classifyHash("stock", {{"mode", "write"}, {c + ":57:write", "1"}}),
              LockKind::RedissonReadWriteLock);
    EXPECT_EQ(classifyHash("stock", {{"mode", "exclusive"}, {c + ":57", "1"}}), LockKind::Unknown);
    EXPECT_EQ(classifyHash("stock", {{"mode", "read"}, {"who", "1"}}), LockKind::Unknown);
    // The lease key holds "1": it must not be taken for the broken fixed value.
    EXPECT_EQ(classifyString("{stock}:" + c + ":57:rwlock_timeout:1", "1", false),
              LockKind::RedissonRwTimeout);
    EXPECT_EQ(resourceOf("{stock}:" + c + ":57:rwlock_timeout:1"), "stock");
    // The plain RLock is still itself.
    EXPECT_EQ(classifyHash("stock", {{c + ":57", "1"}}), LockKind::RedissonLock);
}

TEST(LibraryFormats, HostileInputChangesNothingAndNeverThrows) {
    for (const std::string& key :
         {std::string(""), std::string("job-lock:"), std::string("job-lock::"),
          std::string("laravel_unique_job:"), std::string("uniquejobs:"), std::string(":LOCKED"),
          std::string("redlock-"), std::string("qo_"), std::string("{}:rwlock_timeout:"),
          std::string("\0\xff:LOCKED", 8), std::string(1 << 16, ':')}) {
        for (std::string value : {std::string(""), std::string("ADDED:@"), std::string("\0\1", 2),
                                  std::string(1 << 20, 'A')}) {
            EXPECT_NO_THROW(classifyString(key, value, false));
            EXPECT_NO_THROW(classifyHash(key, {{value, value}, {"mode", value}}));
            EXPECT_NO_THROW(classifyOther(key, ValueType::List));
            auto [offset, length] = resourceSpan(key);
            EXPECT_LE(offset + length, key.size());
        }
    }
    EXPECT_EQ(classifyOther("uniquejobs:", ValueType::List), LockKind::NotALock);
    EXPECT_EQ(classifyHash(":LOCKED", {{"a", "1"}}), LockKind::Unknown);
}
