// Timed lock calls return by their deadline while the server is stalled, and leave no ghost
// lock behind; lock() can be cancelled (issue 33, item 4).

#include <thread>

#include "lockscope/errors.h"
#include "lockscope/lock_scripts.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using lockscope::testing::RedisTest;

namespace {

// The script is cached, as on any server that served a lock before: the EVALSHA that times
// out is the one that runs when the server resumes.
void cacheAcquireScript(Connection& observer) {
    observer.command({"SCRIPT", "LOAD", scripts::acquireOrRenew().source()});
}

// Polls until the key no longer holds `token` (the background clean-up ran) or 5 s passed.
// It asks on a connection opened after the server resumed: the server accepts it after the
// ones the stalled attempts left in its backlog, so it reads the GET after their acquires.
// An older connection's GET can be read before them, find the key still free and pass a
// ghost that is yet to be set (seen under load: 4 runs in 40 then found the lock busy).
bool ghostGone(const Endpoint& server, const std::string& key, const std::string& token) {
    Connection checker = Connection::open(server);
    for (int i = 0; i < 500; ++i) {
        if (checker.command({"GET", key}).text() != token) return true;
        std::this_thread::sleep_for(10ms);
    }
    return false;
}

}  // namespace

// Before: 4,004 ms (two full command timeouts), then OutcomeUnknownError instead of false,
// and after the server resumed our token held the key for its whole TTL.
TEST_F(RedisTest, TryLockForReturnsFalseByItsDeadlineOnAStalledServerAndLeavesNoGhost) {
    RedisLock lock(connect({.commandTimeout = 2000ms}), "deadline:for", {.ttl = 10'000ms});
    cacheAcquireScript(observer());
    std::string token = lock.token();
    server().pause();
    auto start = Clock::now();
    bool got = true;
    EXPECT_NO_THROW(got = lock.try_lock_for(1s));
    auto took = Clock::now() - start;
    server().resume();
    EXPECT_FALSE(got);
    EXPECT_GE(took, 900ms);
    EXPECT_LT(took, 1300ms) << "the stalled server stretched the deadline";
    EXPECT_TRUE(ghostGone(endpoint(), lock.key(), token))
        << "the acquire that ran when the server resumed left our token in the key";
    EXPECT_NE(lock.token(), token) << "a later acquire must not pass for the abandoned one";
    EXPECT_TRUE(lock.try_lock()) << "the lock is free again, for us too";
    lock.unlock();
}

TEST_F(RedisTest, TryLockIsOneAttemptWithinOneCommandTimeout) {
    RedisLock lock(connect({.commandTimeout = 300ms}), "deadline:try", {.ttl = 10'000ms});
    cacheAcquireScript(observer());
    std::string token = lock.token();
    server().pause();
    auto start = Clock::now();
    bool got = true;
    EXPECT_NO_THROW(got = lock.try_lock());
    auto took = Clock::now() - start;
    server().resume();
    EXPECT_FALSE(got);
    EXPECT_LT(took, 500ms) << "the lost-reply retry must share the one command timeout";
    EXPECT_TRUE(ghostGone(endpoint(), lock.key(), token));
}

// hold() and acquire(deadline) keep their documented error (the last I/O error at the
// deadline), but by the deadline, and with the clean-up.
TEST_F(RedisTest, HoldGivesUpByItsDeadlineOnAStalledServer) {
    RedisLock lock(connect({.commandTimeout = 2000ms}), "deadline:hold", {.ttl = 10'000ms});
    cacheAcquireScript(observer());
    std::string token = lock.token();
    server().pause();
    auto start = Clock::now();
    EXPECT_THROW((void)lock.hold(Clock::now() + 500ms), IoError);
    auto took = Clock::now() - start;
    server().resume();
    EXPECT_LT(took, 800ms);
    EXPECT_TRUE(ghostGone(endpoint(), lock.key(), token));
    auto held = lock.hold(Clock::now() + 2s);
    EXPECT_TRUE(held) << "after the clean-up the lock is ours to take";
}

TEST_F(RedisTest, LockWithAStopTokenReturnsFalseWhenStopped) {
    RedisLock holder(connect(), "deadline:stop", {.ttl = 10'000ms});
    RedisLock waiter(connect(), "deadline:stop", {.ttl = 10'000ms});
    ASSERT_TRUE(holder.acquire());
    std::stop_source stop;
    std::jthread canceller([&] {
        std::this_thread::sleep_for(150ms);
        stop.request_stop();
    });
    auto start = Clock::now();
    EXPECT_FALSE(waiter.lock(stop.get_token()));
    EXPECT_LT(Clock::now() - start, 1s);
    EXPECT_FALSE(waiter.try_lock()) << "still busy: the stopped lock() took nothing";
    EXPECT_TRUE(holder.release());
    EXPECT_TRUE(waiter.lock(std::stop_token()));
    waiter.unlock();
}
