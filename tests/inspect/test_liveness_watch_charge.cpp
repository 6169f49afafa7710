// The liveness reads between two steps are charged once (issue 31): chargeOtherReads charges
// them at their server time, and the next step's own charge — the smaller of its round trips
// and the server's deltas (INFO commandstats, server CPU) since the last step, both of which
// count those reads too — leaves them out, so the re-reads are not slowed down twice for them.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "lockscope/inspect/lock_watch.h"
#include "redis_fixture.h"

namespace {

using namespace std::chrono_literals;
using lockscope::Connection;
using lockscope::ConnectionOptions;
using lockscope::inspect::LockWatch;

constexpr int kLocks = 1000;
constexpr int kWorkFields = 100'000;

// The server's usec in HGETALL so far (INFO commandstats), as LivenessCost reads it.
std::uint64_t hgetallUsec(Connection& c) {
    const std::string info = std::string(c.command({"INFO", "commandstats"}).text());
    const auto at = info.find("cmdstat_hgetall:");
    if (at == std::string::npos) return 0;
    const auto usec = info.find("usec=", at);
    return std::stoull(info.substr(usec + 5));
}

class WatchChargeTest : public lockscope::testing::RedisTest {
  protected:
    void SetUp() override {
        RedisTest::SetUp();
        std::vector<std::vector<std::string>> writes;
        for (int i = 0; i < kLocks; ++i)
            writes.push_back({"SET", "lock:{job:" + std::to_string(i) + "}",
                              "token-" + std::to_string(i), "PX", "600000"});
        // A Sidekiq process's work hash, large enough that reading it costs the server more
        // than a step's round trips (HGETALL is also one of the watch's own commands).
        std::vector<std::string> work{"HSET", "sidekiq:host:1:work"};
        for (int i = 0; i < kWorkFields; ++i) {
            work.push_back("tid-" + std::to_string(i));
            work.emplace_back(R"({"queue":"default","payload":"{}","run_at":1700000000})");
        }
        writes.push_back(std::move(work));
        observer().pipeline(writes);
    }

    std::vector<std::string> allLocks() const {
        std::vector<std::string> keys;
        for (int i = 0; i < kLocks; ++i) keys.push_back("lock:{job:" + std::to_string(i) + "}");
        return keys;
    }

    // Steps the watch `steps` times; before each, with `readsBetween`, reads the work hash on
    // the watch's connection and charges it at the server time it cost, as NodeLiveness does.
    void stepMany(LockWatch& watch, Connection& w, int steps, bool readsBetween) {
        for (int i = 0; i < steps; ++i) {
            std::this_thread::sleep_for(20ms);
            if (readsBetween) {
                const auto before = hgetallUsec(observer());
                const auto commandsBefore = w.commandsSent();
                w.command({"HGETALL", "sidekiq:host:1:work"});
                const auto server = std::chrono::microseconds(hgetallUsec(observer()) - before);
                watch.chargeOtherReads(server, w.commandsSent() - commandsBefore);
            }
            watch.step();
        }
    }
};

TEST_F(WatchChargeTest, LivenessReadsBetweenStepsAreNotChargedToTheStepAgain) {
    Connection w = connect(ConnectionOptions{.commandTimeout = 30s});
    LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 600s, .budget = 1.0});
    ASSERT_EQ(watch.step().changed.size(), std::size_t(kLocks));  // the first scan
    watch.setFocus(allLocks());  // every lock re-read every step, no rotation, no sweep

    // A re-read's measured cost per key settles (each step weighs half) without other reads…
    stepMany(watch, w, 8, false);
    const auto alone = watch.policy().costPerKey();
    // …and must settle at the same cost with the liveness reads charged between the steps.
    stepMany(watch, w, 8, true);
    const auto withReads = watch.policy().costPerKey();
    std::printf("cost per key: alone %lld ns, with liveness reads between steps %lld ns\n",
                static_cast<long long>(alone.count()), static_cast<long long>(withReads.count()));
    EXPECT_GT(alone.count(), 0);
    // Charged twice, a step cost its whole round trips (several times its server time here).
    EXPECT_LT(withReads, alone * 2 + 200ns)
        << "the step's own charge includes the liveness reads chargeOtherReads charged";
}

}  // namespace
