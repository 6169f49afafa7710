#include <atomic>
#include <memory>
#include <thread>

#include "lockscope/redis_lock.h"
#include "redis_fixture.h"
#include "sanitizer_time.h"

using namespace lockscope;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using lockscope::testing::RedisTest;

namespace {

// Script calls the server has executed, from INFO commandstats.
long long scriptCalls(Connection& c) {
    std::string info(c.command({"INFO", "commandstats"}).text());
    long long total = 0;
    for (std::string name : {"cmdstat_evalsha:calls=", "cmdstat_eval:calls="}) {
        auto at = info.find(name);
        if (at != std::string::npos) total += std::stoll(info.substr(at + name.size()));
    }
    return total;
}

}  // namespace

TEST_F(RedisTest, WatchdogKeepsAShortLockAliveForTwoSeconds) {
    auto c = std::make_shared<Connection>(connect());
    RedisLock lock(c, "long:job", {.ttl = 300ms});
    ASSERT_TRUE(lock.acquire());
    auto dog = lock.startWatchdog();
    auto until = Clock::now() + 2s;
    while (Clock::now() < until) {
        auto replies = observer().pipeline({{"GET", lock.key()}, {"PTTL", lock.key()}});
        ASSERT_EQ(replies[0].text(), lock.token()) << "the lock lapsed";
        ASSERT_GT(replies[1].integer(), 0);
        std::this_thread::sleep_for(20ms);
    }
    EXPECT_FALSE(dog->lost());
    EXPECT_GE(dog->renewals(), 15);  // about every 100 ms
    EXPECT_TRUE(lock.release());
}

TEST_F(RedisTest, WatchdogReportsLossWithinOneRenewalPeriodWhenTheKeyIsDeleted) {
    auto c = std::make_shared<Connection>(connect());
    // Scaled with the lease (the renewal period is ttl / 3), so under ThreadSanitizer the
    // bound is still one renewal period plus the allowance, both ten times longer.
    using lockscope::testing::scaled;
    RedisLock lock(c, "stolen", {.ttl = scaled(300ms)});
    ASSERT_TRUE(lock.acquire());
    std::atomic<int> callbacks{0};
    std::atomic<Clock::rep> lostAt{0};
    auto dog = lock.startWatchdog({.onLost = [&](const std::string&) {
        lostAt = Clock::now().time_since_epoch().count();
        callbacks.fetch_add(1);
    }});
    std::this_thread::sleep_for(scaled(150ms));
    auto deletedAt = Clock::now();
    observer().command({"DEL", lock.key()});
    // Wait for the callback itself: lost() turns true just before the cancellation is
    // requested and onLost records lostAt (under TSan the test saw lost() with
    // stop_requested() still false).
    while (callbacks.load() == 0 && Clock::now() - deletedAt < scaled(2s))
        std::this_thread::sleep_for(1ms);
    ASSERT_TRUE(dog->lost());
    auto latency = Clock::time_point(Clock::duration(lostAt.load())) - deletedAt;
    EXPECT_LE(latency, scaled(100ms + 30ms)) << "one renewal period is ttl / 3 (100 ms unscaled)";
    EXPECT_TRUE(dog->cancellation().stop_requested());
    EXPECT_NE(dog->lostReason().find("renewal returned 0"), std::string::npos) << dog->lostReason();
    std::this_thread::sleep_for(scaled(250ms));
    EXPECT_EQ(callbacks.load(), 1);
    EXPECT_FALSE(lock.release());
}

TEST_F(RedisTest, WatchdogReportsLossBeforeTheLeaseExpiresWhenTheServerIsStopped) {
    auto c = std::make_shared<Connection>(connect());
    RedisLock lock(c, "frozen", {.ttl = 300ms});
    ASSERT_TRUE(lock.acquire());
    std::atomic<Clock::rep> lostAt{0};
    auto dog = lock.startWatchdog(
        {.onLost = [&](const std::string&) { lostAt = Clock::now().time_since_epoch().count(); }});
    std::this_thread::sleep_for(250ms);
    auto pausedAt = Clock::now();  // every renewal so far was sent before this instant
    server().pause();
    while (!dog->lost() && Clock::now() - pausedAt < 3s) std::this_thread::sleep_for(1ms);
    server().resume();
    ASSERT_TRUE(dog->lost());
    auto reportedAt = Clock::time_point(Clock::duration(lostAt.load()));
    EXPECT_LE(reportedAt, pausedAt + 300ms) << "reported after the lease could have expired";
    EXPECT_NE(dog->lostReason().find("kept failing"), std::string::npos) << dog->lostReason();
}

TEST_F(RedisTest, WatchdogNeverRenewsAfterRelease) {
    auto c = std::make_shared<Connection>(connect());
    using lockscope::testing::scaled;  // the same periods, stretched under ThreadSanitizer
    RedisLock lock(c, "finished", {.ttl = scaled(150ms)});
    ASSERT_TRUE(lock.acquire());
    auto dog = lock.startWatchdog();
    std::this_thread::sleep_for(scaled(200ms));
    EXPECT_GE(dog->renewals(), 2);
    ASSERT_TRUE(lock.release());
    long long callsAfterRelease = scriptCalls(observer());
    std::this_thread::sleep_for(scaled(300ms));  // six renewal periods
    EXPECT_EQ(scriptCalls(observer()), callsAfterRelease);
    EXPECT_FALSE(dog->lost());
}

// The same loop with a renew function of the caller's: here a plain PEXPIRE on a key that is
// not a lock, which keeps it alive until the key disappears; then the loss is reported with
// the function's reason.
TEST_F(RedisTest, WatchdogRunsACustomRenewFunctionOnTheSameSchedule) {
    Connection setup = connect();
    setup.command({"SET", "session:1", "x", "PX", "300"});
    auto renewer = std::make_shared<Connection>(connect());
    auto renew = [renewer](Clock::time_point sentAt, Clock::time_point) {
        if (renewer->command({"PEXPIRE", "session:1", "300"}).integer() != 1)
            return Renewal::lost("session:1 is gone");
        return Renewal::renewed(sentAt + 280ms);
    };
    auto now = Clock::now();
    Watchdog dog(renew, {.ttl = 300ms, .confirmedAt = now, .deadline = now + 280ms}, {});
    std::this_thread::sleep_for(700ms);
    EXPECT_EQ(observer().command({"EXISTS", "session:1"}).integer(), 1) << "not renewed";
    EXPECT_GE(dog.renewals(), 5);  // every 100 ms
    observer().command({"DEL", "session:1"});
    auto deletedAt = Clock::now();
    while (!dog.lost() && Clock::now() - deletedAt < 1s) std::this_thread::sleep_for(1ms);
    EXPECT_EQ(dog.lostReason(), "session:1 is gone");
}
