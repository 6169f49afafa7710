// A lock whose reply is lost on the way back (issue 20, items 2 and 12): the fault proxy
// forwards the acquire to a real redis-server, which runs it, and drops the reply. The
// transport says OutcomeUnknownError (it never re-sends a write); the lock resolves it by
// running its idempotent acquire again, which finds our own token.

#include "lockscope/errors.h"
#include "lockscope/lock_scripts.h"
#include "lockscope/redis_lock.h"
#include "proxied_redis_test.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::ProxiedRedisTest;
using Clock = std::chrono::steady_clock;

namespace {

class LostReplyTest : public ProxiedRedisTest {
  protected:
    void SetUp() override {
        ProxiedRedisTest::SetUp();
        // As on any server that served a lock before: the EVALSHA whose reply is lost is
        // the one that runs (a NOSCRIPT answer would mean nothing ran).
        observer().command({"SCRIPT", "LOAD", scripts::acquireOrRenew().source()});
        observer().command({"SCRIPT", "LOAD", scripts::release().source()});
    }
    RedisLock lockViaProxy(const std::string& name) {
        return RedisLock(viaProxy({.commandTimeout = 1s}), name, {.ttl = 10'000ms});
    }
    std::string value(const std::string& key) {
        return std::string(observer().command({"GET", key}).text());
    }
};

}  // namespace

TEST_F(LostReplyTest, AnAcquireWhoseReplyWasLostFindsItsOwnTokenAndHolds) {
    RedisLock lock = lockViaProxy("lost:acquire");
    proxy().inject(ProxyFault::LoseNextReply);
    Acquisition acquired = lock.tryAcquire();
    EXPECT_EQ(proxy().pending(), ProxyFault::None) << "the fault never fired";
    EXPECT_EQ(proxy().accepted(), 2) << "the lost reply did not cost the connection";
    ASSERT_TRUE(acquired) << "an acquire the server ran was reported as not acquired";
    EXPECT_EQ(acquired.fence, 1);
    EXPECT_EQ(value(lock.key()), lock.token());
    EXPECT_EQ(value(lock.fenceKey()), "1") << "the recovery ran the acquire a second time";
    EXPECT_GT(observer().command({"PTTL", lock.key()}).integer(), 9'000);
    EXPECT_TRUE(lock.isHeld());
    EXPECT_TRUE(lock.ownedOnServer());
    EXPECT_TRUE(lock.release());
    EXPECT_TRUE(observer().command({"GET", lock.key()}).isNil());
}

// The blocking acquire takes the same path, and returns at once: it holds the lock, so there
// is nothing to wait for.
TEST_F(LostReplyTest, ABlockingAcquireWhoseReplyWasLostReturnsTheFenceAtOnce) {
    RedisLock lock = lockViaProxy("lost:blocking");
    proxy().inject(ProxyFault::LoseNextReply);
    auto start = Clock::now();
    EXPECT_EQ(lock.acquire(Clock::now() + 5s), 1);
    EXPECT_LT(Clock::now() - start, 2s);
    EXPECT_EQ(proxy().pending(), ProxyFault::None);
    EXPECT_EQ(value(lock.key()), lock.token());
    EXPECT_EQ(value(lock.fenceKey()), "1");
    EXPECT_TRUE(lock.release());
}

// When another client holds the lock, the lost reply resolves to "busy", never to ours.
TEST_F(LostReplyTest, ALostReplyWhileAnotherHoldsIsBusyNotOurs) {
    observer().command({"SET", "lock:{lost:taken}", "someone-else", "PX", "10000"});
    RedisLock lock = lockViaProxy("lost:taken");
    proxy().inject(ProxyFault::LoseNextReply);
    Acquisition acquired = lock.tryAcquire();
    EXPECT_EQ(proxy().pending(), ProxyFault::None);
    EXPECT_FALSE(acquired);
    EXPECT_EQ(acquired.status, AcquireStatus::Busy);
    EXPECT_FALSE(lock.isHeld());
    EXPECT_EQ(value("lock:{lost:taken}"), "someone-else");
}

TEST_F(LostReplyTest, AReleaseWhoseReplyWasLostStillLeavesTheKeyFree) {
    RedisLock lock = lockViaProxy("lost:release");
    ASSERT_EQ(lock.acquire(), 1);
    proxy().inject(ProxyFault::LoseNextReply);
    EXPECT_TRUE(lock.release());
    EXPECT_EQ(proxy().pending(), ProxyFault::None);
    EXPECT_TRUE(observer().command({"GET", lock.key()}).isNil());
    EXPECT_FALSE(lock.isHeld());
    EXPECT_FALSE(lock.fence());
}
