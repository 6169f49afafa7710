#include <gtest/gtest.h>

#include "lockscope/inspect/hash_slot.h"
#include "lockscope/inspect/value_classifier.h"

using namespace lockscope::inspect;

TEST(ValueClassifier, StringFormats) {
    EXPECT_EQ(classifyString("lock:{a}", "0123456789abcdef0123456789abcdef", true),
              LockKind::Guide);
    EXPECT_EQ(classifyString("lock:{a}", "0123456789abcdef0123456789abcdef", false),
              LockKind::Guide);
    EXPECT_EQ(classifyString("lock:{a}", "7f9c2b1e-1111-4222-8333-444455556666", true),
              LockKind::Guide);
    // uuid1().hex: version nibble (index 12) is 1, variant nibble (index 16) is 8..b.
    EXPECT_EQ(classifyString("job", "a8098c1af86e11dabd1a00112444be1e", false), LockKind::RedisPy);
    EXPECT_EQ(classifyString("job", "a8098c1af86e41dabd1a00112444be1e", false),
              LockKind::NodeRedlock);
    EXPECT_EQ(classifyString("job", "a8098c1af86e11da7d1a00112444be1e", false),
              LockKind::NodeRedlock);
    EXPECT_EQ(classifyString("job", "A8098C1AF86E41DABD1A00112444BE1E", false), LockKind::Unknown);
    EXPECT_EQ(classifyString("job", "q83vEjRWeJASNFZ4kBI0Vg==", false), LockKind::Redsync);
    EXPECT_EQ(classifyString("job", "q83vEjRWeJASNFZ4kBI0Vh==", false),
              LockKind::Unknown);  // 4 spare bits set
    EXPECT_EQ(classifyString("job", "aB3dE5gH7jK9mN1pQ3sT", false), LockKind::RedisPlusPlus);
    EXPECT_EQ(classifyString("job", "aB3dE5gH7jK9mN1pQ3s!", false), LockKind::Unknown);
    EXPECT_EQ(classifyString("lock:report", "1", false), LockKind::FixedValue);
    EXPECT_EQ(classifyString("lock:{x}", "1", true), LockKind::FixedValue);
    EXPECT_EQ(classifyString("job", "7f9c2b1e-1111-4222-8333-444455556666", false), LockKind::Uuid);
    EXPECT_EQ(classifyString("redisson_lock_token:{job}", "12", false),
              LockKind::RedissonFenceToken);
    EXPECT_EQ(classifyString("job", "", false), LockKind::Unknown);
    EXPECT_EQ(classifyString("job", std::string("\0\xff\x01", 3), false), LockKind::Unknown);
    EXPECT_EQ(classifyString("job", std::string(1 << 20, 'a'), false), LockKind::Unknown);
}

TEST(ValueClassifier, RedissonHash) {
    std::vector<HashField> holder{{"6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b:57", "2"}};
    EXPECT_EQ(classifyHash("job", holder), LockKind::RedissonLock);
    EXPECT_EQ(classifyHash("job", {{"6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b:57", "x"}}),
              LockKind::Unknown);
    EXPECT_EQ(classifyHash("job", {{"6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b:", "1"}}),
              LockKind::Unknown);
    EXPECT_EQ(classifyHash("job", {{"name", "alice"}}), LockKind::Unknown);
    EXPECT_EQ(classifyHash("job", {}), LockKind::Unknown);
    EXPECT_EQ(classifyOther("redisson_lock_queue:{job}", ValueType::List),
              LockKind::RedissonFairQueue);
    EXPECT_EQ(classifyOther("redisson_lock_timeout:{job}", ValueType::ZSet),
              LockKind::RedissonFairTimeout);
    EXPECT_EQ(classifyOther("redisson_lock_timeout:{job}", ValueType::List), LockKind::NotALock);
    EXPECT_EQ(classifyOther("lock:q", ValueType::Set), LockKind::NotALock);
}

TEST(ValueClassifier, ResourceAndFenceNames) {
    auto res = [](std::string_view key) {
        auto [o, n] = resourceSpan(key);
        return std::string(key.substr(o, n));
    };
    EXPECT_EQ(res("lock:{report:daily}"), "report:daily");
    EXPECT_EQ(res("lock:report"), "report");
    EXPECT_EQ(res("redisson_lock_queue:{job}"), "job");
    EXPECT_EQ(res("redisson_lock_token:job"), "job");
    EXPECT_EQ(res("lock:{}x"), "{}x");  // empty hash tag: no tag
    EXPECT_EQ(res("plain"), "plain");
    EXPECT_EQ(res("lock:"), "lock:");
    EXPECT_EQ(res(""), "");
    EXPECT_EQ(fenceKeyFor("lock:{a}"), "fence:{a}");
    EXPECT_EQ(fenceKeyFor("other:{a}"), std::nullopt);
}

TEST(HashSlot, MatchesRedisCluster) {
    // Values from CLUSTER KEYSLOT on a real cluster.
    EXPECT_EQ(keyHashSlot("foo"), 12182);
    EXPECT_EQ(keyHashSlot("bar"), 5061);
    EXPECT_EQ(keyHashSlot("{user1000}.following"), keyHashSlot("{user1000}.followers"));
    EXPECT_EQ(keyHashSlot("lock:{report}"), keyHashSlot("fence:{report}"));
    EXPECT_NE(keyHashSlot("lock:report"), keyHashSlot("fence:report"));
    EXPECT_EQ(crc16("123456789"), 0x31c3);
}
