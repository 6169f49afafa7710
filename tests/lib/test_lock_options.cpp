// LockOptions are checked when the lock is built, before anything is sent (issue 33, item 5).

#include "lockscope/errors.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;

// Before: equal prefixes made the lock key its own fence counter; the script set our token
// and then failed with "ERR value is not an integer", leaving the key held for the TTL.
TEST_F(RedisTest, EqualPrefixesAreRefusedBeforeAnythingIsSent) {
    auto c = std::make_shared<Connection>(connect());
    EXPECT_THROW(RedisLock(c, "p", {.lockPrefix = "same:", .fencePrefix = "same:"}),
                 InvalidArgumentError);
    EXPECT_THROW(RedisLock(c, "p", {.lockPrefix = "", .fencePrefix = ""}), InvalidArgumentError);
    try {
        RedisLock(c, "p", {.lockPrefix = "x:", .fencePrefix = "x:"});
    } catch (const InvalidArgumentError& e) {
        EXPECT_NE(std::string(e.what()).find("prefix"), std::string::npos) << e.what();
    }
    EXPECT_EQ(c->commandsSent(), 0u);
    EXPECT_EQ(keyCount(), 0);
    // Different prefixes, one of them empty, are fine and work.
    RedisLock fine(c, "p", {.lockPrefix = "", .fencePrefix = "f:"});
    EXPECT_EQ(fine.acquire(), 1);
    EXPECT_EQ(fine.key(), "{p}");
    EXPECT_TRUE(fine.release());
}

// Before: "lk{zz}:" was accepted, so the key's hash tag was "zz" for every lock, defeating the
// rule that keeps the lock and its fence in one Cluster slot (names with braces are refused).
TEST_F(RedisTest, PrefixesWithBracesOrControlBytesAreRefused) {
    auto c = std::make_shared<Connection>(connect());
    EXPECT_THROW(RedisLock(c, "p", {.lockPrefix = "lk{zz}:"}), InvalidArgumentError);
    EXPECT_THROW(RedisLock(c, "p", {.fencePrefix = "f}:"}), InvalidArgumentError);
    EXPECT_THROW(RedisLock(c, "p", {.lockPrefix = std::string("l\0:", 3)}), InvalidArgumentError);
    EXPECT_THROW(RedisLock(c, "p", {.fencePrefix = "f\n"}), InvalidArgumentError);
    EXPECT_THROW(RedisLock(c, "p", {.lockPrefix = std::string(600, 'l')}), InvalidArgumentError);
    EXPECT_THROW(RedisLock(c, "p", {.ttl = -5ms}), InvalidArgumentError);
    EXPECT_EQ(c->commandsSent(), 0u);
    EXPECT_NO_THROW(validateLockOptions({.lockPrefix = "lock:", .fencePrefix = "fence:"}));
}
