// holdLock(): endpoint or connection + name + options + deadline → a held, watched handle
// that owns its lock and connection (issue 33, item 10).

#include <algorithm>
#include <thread>

#include "lockscope/errors.h"
#include "lockscope/hold_lock.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using lockscope::testing::RedisTest;

TEST_F(RedisTest, HoldLockConnectsHoldsRenewsAndReleasesInOneCall) {
    std::string key, token;
    {
        auto held = holdLock(endpoint(), "one:call", Clock::now() + 1s, {.ttl = 300ms});
        ASSERT_TRUE(held);
        EXPECT_EQ(held->fence(), 1);
        key = held->lock().key();
        token = held->lock().token();
        std::this_thread::sleep_for(800ms);  // more than two TTLs: the watchdog renews
        EXPECT_EQ(observer().command({"GET", key}).text(), token);
        EXPECT_FALSE(held->lost());
    }
    EXPECT_TRUE(observer().command({"GET", key}).isNil()) << "not released at scope exit";
    // The handle owned its connections: only the observer's is left (the server notices a
    // closed socket on its next loop, hence the short wait).
    std::string clients;
    for (int i = 0; i < 100; ++i) {
        clients = observer().command({"CLIENT", "LIST"}).text();
        if (std::count(clients.begin(), clients.end(), '\n') == 1) break;
        std::this_thread::sleep_for(10ms);
    }
    EXPECT_EQ(std::count(clients.begin(), clients.end(), '\n'), 1) << clients;
}

TEST_F(RedisTest, HoldLockWaitsUntilItsDeadlineForABusyLock) {
    RedisLock holder(connect(), "one:busy", {.ttl = 5000ms});
    ASSERT_TRUE(holder.acquire());
    auto start = Clock::now();
    auto held = holdLock(endpoint(), "one:busy", Clock::now() + 300ms, {},
                         {.retry = {.delay = 20ms, .jitter = 10ms}});
    EXPECT_FALSE(held);
    EXPECT_GE(Clock::now() - start, 250ms);
    EXPECT_LT(Clock::now() - start, 1500ms);
    EXPECT_TRUE(holder.release());
    auto shared = std::make_shared<Connection>(connect());
    auto after = holdLock(shared, "one:busy", Clock::now() + 1s);
    ASSERT_TRUE(after);
    EXPECT_EQ(after->fence(), 2);
}

TEST_F(RedisTest, HoldLockRefusesBadInputBeforeConnecting) {
    Endpoint nowhere = endpoint();
    nowhere.port = 1;  // nothing listens: a bad call must fail on its input, not connect
    EXPECT_THROW((void)holdLock(nowhere, "", Clock::now() + 1s), InvalidArgumentError);
    EXPECT_THROW((void)holdLock(nowhere, "a{b}", Clock::now() + 1s), InvalidArgumentError);
    EXPECT_THROW((void)holdLock(nowhere, std::string(600, 'x'), Clock::now() + 1s),
                 InvalidArgumentError);
    EXPECT_THROW((void)holdLock(nowhere, "ok", Clock::now() + 1s, {.ttl = 0ms}),
                 InvalidArgumentError);
    EXPECT_THROW((void)holdLock(std::shared_ptr<Connection>(), "ok", Clock::now() + 1s),
                 InvalidArgumentError);
    EXPECT_THROW((void)holdLock(nowhere, "ok", Clock::now() + 300ms), IoError);
    EXPECT_EQ(keyCount(), 0);
}
