// The liveness reads are charged to the watch's load budget at their server time (README,
// liveness_load_bench): INFO commandstats calibrates the ratio of the server's time in the
// liveness reads' commands to their wall time, so pipelined holder-record reads are charged
// what the server spent, not the network and reply parsing around it; never more than their
// wall time, and the wall time itself where INFO is denied.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "inspect/liveness/liveness_cost.h"
#include "redis_fixture.h"

namespace {

using namespace std::chrono_literals;
using lockscope::Connection;
using lockscope::inspect::LivenessCost;
using lockscope::inspect::SteadyClock;

// Pipelined HMGETs of holder records, as the own-lock judge reads them; returns their wall time.
std::chrono::nanoseconds readHolderRecords(Connection& c, int count) {
    std::vector<std::vector<std::string>> reads;
    for (int i = 0; i < count; ++i)
        reads.push_back({"HMGET", "holder:{job" + std::to_string(i) + "}", "token", "host", "pid",
                         "connection"});
    const auto started = SteadyClock::now();
    c.pipeline(reads);
    return SteadyClock::now() - started;
}

std::uint64_t serverUsec(Connection& c) {
    return LivenessCost::livenessCommandsUsec(c.command({"INFO", "commandstats"}).text());
}

class LivenessCharge : public lockscope::testing::RedisTest {
  protected:
    void SetUp() override {
        RedisTest::SetUp();
        std::vector<std::vector<std::string>> writes;
        for (int i = 0; i < 2000; ++i)
            writes.push_back({"HSET", "holder:{job" + std::to_string(i) + "}", "token", "t", "host",
                              "h", "pid", "1", "connection", "lockscope:h:1"});
        observer().pipeline(writes);
    }
};

TEST_F(LivenessCharge, PipelinedReadsAreChargedTheirServerTimeNotTheirRoundTrips) {
    Connection c = connect();
    LivenessCost cost(0ms);  // calibrate at every charge
    // The first charge reads INFO for a starting point: the wall time, as before.
    auto wall = readHolderRecords(c, 2000);
    EXPECT_GE(cost.charge(c, wall, SteadyClock::now()), wall);
    std::chrono::nanoseconds wallTotal{0}, charged{0};
    const auto before = serverUsec(observer());
    for (int round = 0; round < 5; ++round) {
        wall = readHolderRecords(c, 2000);
        wallTotal += wall;
        charged += cost.charge(c, wall, SteadyClock::now());
    }
    const auto server = std::chrono::microseconds(serverUsec(observer()) - before);
    // Below the round trips (the old charge), and at least what the server says it spent on
    // the reads charged after the first calibration (the last round's INFO is charged whole).
    EXPECT_LT(cost.ratio(), 1.0);
    EXPECT_LT(charged, wallTotal);
    EXPECT_GT(charged, std::chrono::nanoseconds(0));
    EXPECT_GE(charged + 1ms, std::chrono::duration_cast<std::chrono::nanoseconds>(server) / 2)
        << "charged " << charged.count() << " ns, server " << server.count() << " us";
}

TEST_F(LivenessCharge, WithoutInfoTheWallTimeIsCharged) {
    observer().command({"ACL", "SETUSER", "noinfo", "on", ">pw", "~*", "+@all", "-info"});
    auto endpoint = this->endpoint();
    endpoint.user = "noinfo";
    endpoint.password = "pw";
    Connection c = Connection::open(endpoint);
    LivenessCost cost(0ms);
    for (int round = 0; round < 3; ++round) {
        const auto wall = readHolderRecords(c, 500);
        EXPECT_GE(cost.charge(c, wall, SteadyClock::now()), wall);
    }
    EXPECT_EQ(cost.ratio(), 1.0);
}

}  // namespace
