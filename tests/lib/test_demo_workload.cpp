#include <thread>

#include "lockscope/sandbox/demo_workload.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;

TEST_F(RedisTest, DemoWorkloadShowsEveryKindOfLockAndHandsOff) {
    DemoWorkload workload(endpoint());
    std::this_thread::sleep_for(700ms);
    Connection& c = observer();
    EXPECT_EQ(c.command({"PTTL", "lock:{cache:rebuild}"}).integer(), -1) << "the orphan has no TTL";
    EXPECT_EQ(c.command({"GET", "lock:report"}).text(), "1");
    EXPECT_GT(c.command({"PTTL", "lock:report"}).integer(), 0);
    EXPECT_GT(c.command({"PTTL", "lock:{report:nightly}"}).integer(), 0);
    EXPECT_EQ(c.command({"GET", "lock:{report:nightly}"}).text().size(), 32u);
    ASSERT_FALSE(c.command({"GET", "lock:{invoice:batch}"}).isNil());
    std::string firstHolder(c.command({"GET", "lock:{invoice:batch}"}).text());
    std::string firstFence(c.command({"GET", "fence:{invoice:batch}"}).text());

    // The two invoice workers take turns: a new token and a higher fence within a few seconds.
    auto until = std::chrono::steady_clock::now() + 8s;
    bool handedOff = false;
    while (!handedOff && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(100ms);
        Reply holder = c.command({"GET", "lock:{invoice:batch}"});
        handedOff = !holder.isNil() && holder.text() != firstHolder;
    }
    EXPECT_TRUE(handedOff);
    EXPECT_GT(std::stoll(std::string(c.command({"GET", "fence:{invoice:batch}"}).text())),
              std::stoll(firstFence));
    // The nightly job renews: its TTL never ran out while we watched.
    EXPECT_GT(c.command({"PTTL", "lock:{report:nightly}"}).integer(), 0);
    EXPECT_EQ(workload.errors(), 0);
}
