// The Redlock observer (issue 20, item 14): one LockEvent per acquire, extend and release
// call, and Lost from the watchdog, each carrying the round it comes from — what every node
// answered, the quorum, the validity — checked against what five real servers hold.

#include <atomic>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>
#include <vector>

#include "five_redis_servers.h"
#include "lockscope/redlock/redlock.h"
#include "sanitizer_time.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::FiveRedisServers;
using lockscope::testing::scaled;
using Clock = std::chrono::steady_clock;

namespace {

// An event as the observer saw it, with a copy of its round (the pointer dies with the call).
struct Seen {
    LockEvent event;
    std::optional<RedlockAttempt> round;
};

class Recorder {
  public:
    LockObserver observer() {
        return [this](const LockEvent& e) {
            std::lock_guard lock(mutex_);
            Seen seen{e, e.round ? std::optional<RedlockAttempt>(*e.round) : std::nullopt};
            seen.event.round = nullptr;
            seen_.push_back(std::move(seen));
        };
    }
    std::vector<LockEventKind> kinds() const {
        std::lock_guard lock(mutex_);
        std::vector<LockEventKind> out;
        for (const auto& s : seen_) out.push_back(s.event.kind);
        return out;
    }
    Seen at(std::size_t i) const {
        std::lock_guard lock(mutex_);
        return seen_.at(i);
    }
    std::size_t size() const {
        std::lock_guard lock(mutex_);
        return seen_.size();
    }

  private:
    mutable std::mutex mutex_;  // Lost arrives on the watchdog's thread
    std::vector<Seen> seen_;
};

}  // namespace

using RedlockObserverTest = FiveRedisServers;

TEST_F(RedlockObserverTest, AcquireExtendReleaseEachReportTheirRound) {
    Recorder events;
    Redlock lock(nodeSet(), "observed", {.ttl = 2'000ms, .observer = events.observer()});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    std::this_thread::sleep_for(50ms);
    ASSERT_TRUE(lock.extend().succeeded);
    lock.release();
    ASSERT_EQ(events.kinds(), (std::vector{LockEventKind::Acquired, LockEventKind::Extended,
                                           LockEventKind::Released}));

    Seen acquired = events.at(0);
    EXPECT_EQ(acquired.event.key, "lock:{observed}");
    EXPECT_FALSE(acquired.event.fence) << "Redlock has no fencing token";
    EXPECT_GT(acquired.event.waited.count(), 0);
    ASSERT_TRUE(acquired.round);
    EXPECT_EQ(acquired.round->operation, RedlockOperation::Acquire);
    EXPECT_EQ(acquired.round->quorum, 3);
    EXPECT_EQ(acquired.round->granted(), 5);
    ASSERT_EQ(acquired.round->nodes.size(), 5u);
    EXPECT_EQ(acquired.round->nodes[0].node, server(0).endpoint().display());
    EXPECT_GT(acquired.round->validity, 1'900ms);
    EXPECT_LT(acquired.round->validity, 2'000ms);

    Seen extended = events.at(1);
    ASSERT_TRUE(extended.round);
    EXPECT_EQ(extended.round->operation, RedlockOperation::Extend);
    EXPECT_EQ(extended.round->granted(), 5);
    EXPECT_GE(extended.event.held, 50ms);

    Seen released = events.at(2);
    ASSERT_TRUE(released.round);
    EXPECT_EQ(released.round->operation, RedlockOperation::Release);
    EXPECT_TRUE(released.event.stillOwned);
    EXPECT_GE(released.event.held, 50ms);
    EXPECT_EQ(totalKeys(), 0) << "the release the observer reported did not happen";
}

// A blocking acquire that never gets a majority is one AcquireFailed, not one per retry, and
// its round names the nodes that refused.
TEST_F(RedlockObserverTest, AFailedAcquireIsOneEventNamingTheRefusingNodes) {
    for (int i : {0, 1, 2}) observer(i).command({"SET", "lock:{taken}", "other", "PX", "10000"});
    Recorder events;
    Redlock lock(nodeSet(), "taken", {.ttl = 1'000ms, .observer = events.observer()});
    RedlockAttempt last = lock.acquire(Clock::now() + 300ms, {.delay = 50ms, .jitter = 10ms});
    ASSERT_FALSE(last.succeeded);
    ASSERT_GT(last.number, 1) << "the deadline allowed retries";
    ASSERT_EQ(events.kinds(), std::vector{LockEventKind::AcquireFailed});
    Seen failed = events.at(0);
    EXPECT_GE(failed.event.waited, 200ms);
    EXPECT_NE(failed.event.reason.find("only 2 of 5 nodes granted"), std::string::npos)
        << failed.event.reason;
    ASSERT_TRUE(failed.round);
    EXPECT_EQ(failed.round->number, last.number);
    EXPECT_EQ(failed.round->refused(), 3);
    EXPECT_EQ(failed.round->nodes[0].verdict, NodeVerdict::Refused);
    EXPECT_EQ(failed.round->nodes[4].verdict, NodeVerdict::Granted);
    // The clean-up release after each failed attempt is not a Released event.
    lock.release();
    EXPECT_EQ(events.size(), 1u);
    EXPECT_EQ(nodesHolding("lock:{taken}", "other"), 3);
}

TEST_F(RedlockObserverTest, AnExtendThatFallsShortIsReportedWithItsNodes) {
    Recorder events;
    // The default node timeout of a 5 s TTL (50 ms) and the TTL, scaled: under ThreadSanitizer
    // all five nodes timed out on the extend, so no node refused.
    Redlock lock(
        nodeSet(), "stolen",
        {.ttl = scaled(5'000ms), .nodeTimeout = scaled(50ms), .observer = events.observer()});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    server(3).stop();
    for (int i : {0, 1}) observer(i).command({"SET", lock.key(), "intruder", "PX", "10000"});
    EXPECT_FALSE(lock.extend().succeeded);
    ASSERT_EQ(events.kinds(), (std::vector{LockEventKind::Acquired, LockEventKind::ExtendFailed}));
    Seen failed = events.at(1);
    ASSERT_TRUE(failed.round);
    EXPECT_EQ(failed.round->granted(), 2);
    EXPECT_EQ(failed.round->refused(), 2);
    EXPECT_EQ(failed.round->errors(), 1);
    EXPECT_EQ(failed.round->nodes[3].verdict, NodeVerdict::Error);
    EXPECT_NE(failed.event.reason.find("only 2 of 5 nodes renewed"), std::string::npos)
        << failed.event.reason;
}

// Lost comes from the watchdog's thread, before the caller's onLost, with the renewal round
// that showed the majority gone.
TEST_F(RedlockObserverTest, TheWatchdogsLossCarriesItsLastRenewal) {
    Recorder events;
    Redlock lock(nodeSet(), "watched", {.ttl = 600ms, .observer = events.observer()});
    ASSERT_TRUE(lock.tryAcquire().succeeded);
    std::atomic<std::size_t> eventsWhenOnLostRan{0};
    auto dog = lock.startWatchdog(
        {.onLost = [&](const std::string&) { eventsWhenOnLostRan.store(events.size()); }});
    for (int i : {0, 1, 2}) observer(i).command({"SET", lock.key(), "intruder", "PX", "10000"});
    auto until = Clock::now() + 2s;
    while (eventsWhenOnLostRan.load() == 0 && Clock::now() < until)
        std::this_thread::sleep_for(5ms);
    ASSERT_TRUE(dog->lost());
    EXPECT_EQ(eventsWhenOnLostRan.load(), 2u) << "the observer heard Lost after onLost";
    ASSERT_EQ(events.kinds(), (std::vector{LockEventKind::Acquired, LockEventKind::Lost}));
    Seen lost = events.at(1);
    EXPECT_EQ(lost.event.reason, dog->lostReason());
    EXPECT_GE(lost.event.held, 100ms);
    ASSERT_TRUE(lost.round);
    EXPECT_EQ(lost.round->operation, RedlockOperation::Extend);
    EXPECT_EQ(lost.round->refused(), 3);
    EXPECT_EQ(lost.round->granted(), 2);
    lock.release();
    EXPECT_EQ(events.kinds().back(), LockEventKind::Released);
    EXPECT_FALSE(events.at(2).event.stillOwned);
}

TEST_F(RedlockObserverTest, AThrowingObserverDoesNotBreakTheLock) {
    Redlock lock(nodeSet(), "logger-down", {.ttl = 2'000ms, .observer = [](const LockEvent&) {
                                                throw std::runtime_error("logger down");
                                            }});
    EXPECT_TRUE(lock.tryAcquire().succeeded);
    EXPECT_TRUE(lock.extend().succeeded);
    EXPECT_TRUE(lock.release().succeeded);
    EXPECT_EQ(totalKeys(), 0);
}

TEST_F(RedlockObserverTest, NothingHeldNothingReported) {
    Recorder events;
    Redlock lock(nodeSet(), "idle", {.ttl = 1'000ms, .observer = events.observer()});
    lock.release();
    lock.extend();
    EXPECT_EQ(events.size(), 0u);
}
