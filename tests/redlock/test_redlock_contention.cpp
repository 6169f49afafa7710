// Contending clients on five real servers, with nothing paused: at no moment do two of them
// hold a valid lock. Each holder checks, inside its critical section, that it is alone and
// that its validity has not run out.

#include <atomic>
#include <thread>

#include "five_redis_servers.h"
#include "lockscope/redlock/redlock.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::FiveRedisServers;

using RedlockContention = FiveRedisServers;

TEST_F(RedlockContention, ClientsNeverBothHoldAValidLock) {
    constexpr int kClients = 6, kAttempts = 150;
    std::atomic<int> holders{0}, maxHolders{0}, acquired{0}, splitVotes{0}, invalidInside{0};
    std::vector<std::jthread> clients;
    for (int c = 0; c < kClients; ++c) {
        clients.emplace_back([&] {
            // Each client its own sockets, as separate processes would.
            auto nodes = std::make_shared<RedlockNodeSet>(nodeSet());
            for (int i = 0; i < kAttempts; ++i) {
                Redlock lock(nodes, "contended", {.ttl = 5'000ms, .nodeTimeout = 200ms});
                RedlockAttempt attempt = lock.tryAcquire();
                if (!attempt.succeeded) {
                    // Nobody got a majority this round (e.g. 2–2–1): a split vote, not an error.
                    if (attempt.granted() > 0) splitVotes.fetch_add(1);
                    EXPECT_EQ(attempt.errors(), 0) << attempt.details();
                    continue;
                }
                int now = holders.fetch_add(1) + 1;
                int seen = maxHolders.load();
                while (now > seen && !maxHolders.compare_exchange_weak(seen, now)) {
                }
                if (!lock.isValid()) invalidInside.fetch_add(1);
                acquired.fetch_add(1);
                holders.fetch_sub(1);
                RedlockAttempt released = lock.release();
                EXPECT_EQ(released.granted(), attempt.granted()) << released.details();
            }
        });
    }
    clients.clear();
    EXPECT_EQ(maxHolders.load(), 1);
    EXPECT_EQ(invalidInside.load(), 0);
    EXPECT_GT(acquired.load(), kClients);  // contention, yet progress
    EXPECT_EQ(totalKeys(), 0);             // every grant and every partial grant was released
    std::printf("[          ] %d of %d attempts acquired, %d split votes\n", acquired.load(),
                kClients * kAttempts, splitVotes.load());
}
