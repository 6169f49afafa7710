// The held-lock handle (hold()), the lock observer and fence regressions (issue 20, items
// 3, 11, 14).

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "lockscope/errors.h"
#include "lockscope/fenced_store.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;
using lockscope::testing::RedisTest;
using lockscope::testing::TempDir;

namespace {

// Collects what an observer hears, from any thread.
struct Events {
    std::mutex mutex;
    std::vector<LockEvent> seen;
    LockObserver observer() {
        return [this](const LockEvent& e) {
            std::lock_guard lock(mutex);
            seen.push_back(e);
        };
    }
    std::vector<LockEventKind> kinds() {
        std::lock_guard lock(mutex);
        std::vector<LockEventKind> out;
        for (const auto& e : seen) out.push_back(e.kind);
        return out;
    }
    LockEvent last() {
        std::lock_guard lock(mutex);
        return seen.back();
    }
};

}  // namespace

TEST_F(RedisTest, HoldAcquiresWatchesAndReleasesOnScopeExit) {
    RedisLock lock(connect(), "held:scope", {.ttl = 300ms});
    {
        auto held = lock.hold(Clock::now() + 1s);
        ASSERT_TRUE(held);
        EXPECT_EQ(held->fence(), 1);
        EXPECT_FALSE(held->fenceRegressed());
        std::this_thread::sleep_for(700ms);  // more than two TTLs: the watchdog renews
        EXPECT_EQ(observer().command({"GET", lock.key()}).text(), lock.token());
        EXPECT_FALSE(held->lost());
        EXPECT_FALSE(held->cancellation().stop_requested());
    }
    EXPECT_TRUE(observer().command({"GET", lock.key()}).isNil()) << "not released at scope exit";
    EXPECT_FALSE(lock.isHeld());
}

TEST_F(RedisTest, HoldReturnsNothingWhenBusyAndWhenCancelled) {
    RedisLock holder(connect(), "held:busy"), waiter(connect(), "held:busy");
    ASSERT_TRUE(holder.acquire());
    EXPECT_FALSE(waiter.hold(Clock::now() + 100ms, {.retry = {10ms, 10ms}}));
    std::stop_source cancel;
    cancel.request_stop();
    EXPECT_FALSE(waiter.hold(Clock::now() + 10s, {.stop = cancel.get_token()}));
}

// Before: LockGuard swallowed everything, so a scope that lost its lock ended silently.
TEST_F(RedisTest, ALostLockIsReportedOnceAndCancelsTheWork) {
    RedisLock lock(connect(), "held:lost", {.ttl = 300ms});
    std::atomic<int> calls{0};
    std::string reason;
    std::mutex reasonMutex;
    {
        auto held = lock.hold(Clock::now() + 1s, {.watchdog = {.onLost = [&](const std::string& r) {
                                                      std::lock_guard g(reasonMutex);
                                                      reason = r;
                                                      calls.fetch_add(1);
                                                  }}});
        ASSERT_TRUE(held);
        observer().command({"SET", lock.key(), "someone-else"});
        auto until = Clock::now() + 1s;
        while (!held->cancellation().stop_requested() && Clock::now() < until)
            std::this_thread::sleep_for(2ms);
        EXPECT_TRUE(held->cancellation().stop_requested());
        EXPECT_TRUE(held->lost());
        EXPECT_FALSE(held->release()) << "release must say the lock had been lost";
    }
    EXPECT_EQ(calls.load(), 1);
    std::lock_guard g(reasonMutex);
    EXPECT_NE(reason.find("renewal returned 0"), std::string::npos) << reason;
    EXPECT_EQ(observer().command({"GET", lock.key()}).text(), "someone-else") << "not ours";
}

// A loss the watchdog could not see yet (the key was taken between two renewals) is still
// reported, at scope exit.
TEST_F(RedisTest, ALossNoticedOnlyAtReleaseIsReportedAtScopeExit) {
    RedisLock lock(connect(), "held:late", {.ttl = 3000ms});
    std::atomic<int> calls{0};
    {
        auto held = lock.hold(Clock::now() + 1s,
                              {.watchdog = {.onLost = [&](const std::string&) { ++calls; }}});
        ASSERT_TRUE(held);
        observer().command({"DEL", lock.key()});
    }
    EXPECT_EQ(calls.load(), 1);
}

TEST_F(RedisTest, AMovedFromHandleHoldsNothing) {
    RedisLock lock(connect(), "held:moved", {.ttl = 1000ms});
    auto held = lock.hold(Clock::now() + 1s);
    ASSERT_TRUE(held);
    HeldLock taken = std::move(*held);
    EXPECT_THROW(held->fence(), InvalidArgumentError);
    EXPECT_EQ(taken.fence(), 1);
    EXPECT_TRUE(taken.release());
    EXPECT_FALSE(taken.release()) << "a second release sends nothing";
}

TEST_F(RedisTest, ObserverHearsEveryStepWithDurations) {
    Events events;
    RedisLock lock(connect(), "held:observed", {.ttl = 300ms, .observer = events.observer()});
    ASSERT_TRUE(lock.acquire());
    EXPECT_TRUE(lock.extend());
    std::this_thread::sleep_for(20ms);
    EXPECT_TRUE(lock.release());
    EXPECT_EQ(events.kinds(), (std::vector{LockEventKind::Acquired, LockEventKind::Extended,
                                           LockEventKind::Released}));
    LockEvent released = events.last();
    EXPECT_TRUE(released.stillOwned);
    EXPECT_EQ(released.fence, 1);
    EXPECT_GE(released.held, 20ms);
    EXPECT_EQ(released.key, "lock:{held:observed}");

    ASSERT_TRUE(lock.acquire());
    lock.startWatchdog();
    observer().command({"DEL", lock.key()});
    auto until = Clock::now() + 1s;
    while (events.last().kind != LockEventKind::Lost && Clock::now() < until)
        std::this_thread::sleep_for(2ms);
    EXPECT_EQ(events.last().kind, LockEventKind::Lost);
    EXPECT_FALSE(events.last().reason.empty());
    (void)lock.release();
    EXPECT_FALSE(events.last().stillOwned);
}

TEST_F(RedisTest, AThrowingObserverDoesNotBreakLocking) {
    RedisLock lock(connect(), "held:throwing",
                   {.observer = [](const LockEvent&) { throw std::runtime_error("logger down"); }});
    EXPECT_EQ(lock.acquire(), 1);
    EXPECT_TRUE(lock.release());
}

// A server restarted without persistence starts fence:{name} at 1 again: the new holder's
// fence is below what the resource accepted, and every write it makes would be refused.
TEST_F(RedisTest, FenceThatGoesBackwardsAfterARestartIsDetected) {
    TempDir dir;
    FencedStore store(dir.path("reports.db"));
    Events events;
    auto c = std::make_shared<Connection>(connect());
    for (int i = 0; i < 2; ++i) {
        RedisLock lock(c, "held:regress", {.observer = events.observer()});
        auto fence = lock.acquire();
        ASSERT_TRUE(fence);
        EXPECT_TRUE(store.write("daily", "report", *fence).accepted());
        (void)lock.release();
    }
    server().restart();  // no persistence: the counter is gone
    RedisLock after(c, "held:regress", {.observer = events.observer()});
    Acquisition acquired = after.tryAcquire();
    EXPECT_EQ(acquired.status, AcquireStatus::FenceRegressed);
    EXPECT_EQ(acquired.fence, 1);
    EXPECT_EQ(acquired.highestFenceSeen, 2);
    EXPECT_EQ(events.last().kind, LockEventKind::FenceRegressed);
    EXPECT_NE(events.last().reason.find("went backwards"), std::string::npos);
    FencedWrite refused = store.write("daily", "new report", *acquired.fence);
    EXPECT_EQ(refused.status, FencedWrite::Status::Stale);
    EXPECT_EQ(refused.currentFence, 2);
    (void)after.release();

    // The remedy without persistence: seed the counter from the resource's own highest fence.
    observer().command({"SET", after.fenceKey(), std::to_string(store.read("daily")->fence)});
    RedisLock seeded(c, "held:regress");
    Acquisition fresh = seeded.tryAcquire();
    EXPECT_EQ(fresh.status, AcquireStatus::Acquired);
    EXPECT_EQ(fresh.fence, 3);
    EXPECT_TRUE(store.write("daily", "new report", *fresh.fence).accepted());
    (void)seeded.release();
}
