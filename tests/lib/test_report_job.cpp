// The guide's worked scenario, fixed version, end to end on a real redis-server and a real
// SQLite file: three scheduler instances run the nightly report job with the lock, renew it
// between chunks, save with the fencing token and send the email keyed by date.

#include <atomic>
#include <mutex>
#include <thread>

#include "lockscope/fenced_store.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"
#include "sanitizer_time.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;
using lockscope::testing::scaled;
using lockscope::testing::TempDir;

namespace {

struct JobResult {
    std::optional<std::int64_t> fence;
    bool aborted = false;  // renewal failed: the lock was lost mid-job
    bool saveAccepted = false;
};

// The guide's fixed job. pauseAtChunk simulates a GC pause or a suspended VM.
JobResult runReportJob(const Endpoint& endpoint, FencedStore& store, std::atomic<int>& emails,
                       int instance, int pauseAtChunk) {
    JobResult result;
    RedisLock lock(Connection::open(endpoint), "report:daily", {.ttl = 300ms});
    result.fence = lock.acquire(std::chrono::steady_clock::now() + 5s, {10ms, 10ms});
    if (!result.fence) return result;
    LockGuard guard(lock);
    std::string report;
    for (int chunk = 0; chunk < 5; ++chunk) {
        std::this_thread::sleep_for(40ms);                              // build the chunk
        if (chunk == pauseAtChunk) std::this_thread::sleep_for(600ms);  // paused past the TTL
        if (!lock.extend()) {                                           // renew; stop if lost
            result.aborted = true;
            return result;
        }
        report +=
            "chunk" + std::to_string(chunk) + " by instance " + std::to_string(instance) + "\n";
    }
    result.saveAccepted = store.write("daily", report, *result.fence).accepted();  // fenced
    store.runOnce("email:2026-11-29", [&] { emails.fetch_add(1); });               // idempotent
    return result;
}

// Waits until some instance has taken the lock once (its fence counter exists), or 5 s.
void waitForFirstAcquire(const Endpoint& endpoint) {
    Connection c = Connection::open(endpoint);
    for (int i = 0; i < 500 && c.command({"EXISTS", "fence:{report:daily}"}).integer() == 0; ++i)
        std::this_thread::sleep_for(10ms);
}

}  // namespace

TEST_F(RedisTest, GuideWorkedScenarioFixedVersion) {
    TempDir dir;
    FencedStore store(dir.path("reports.db"));
    std::atomic<int> emails{0};
    JobResult results[3];
    {
        std::vector<std::jthread> instances;
        for (int i = 0; i < 3; ++i) {
            instances.emplace_back([&, i] {
                // Staggered triggers, instance 0 first: the others start once it holds the
                // lock. A delay alone was not enough under the sanitizers on a loaded machine
                // (opening a connection took longer than 30 ms, and instance 0 came third).
                if (i > 0) waitForFirstAcquire(endpoint());
                std::this_thread::sleep_for(scaled(30ms) * i);
                results[i] = runReportJob(endpoint(), store, emails, i, i == 0 ? 1 : -1);
            });
        }
    }
    // Instance 0 got the lock first, paused past its TTL, failed to renew and aborted.
    EXPECT_EQ(results[0].fence, 1);
    EXPECT_TRUE(results[0].aborted);
    EXPECT_FALSE(results[0].saveAccepted);
    // The others ran one after the other and finished.
    std::int64_t highest = 0;
    for (int i = 1; i < 3; ++i) {
        ASSERT_TRUE(results[i].fence) << "instance " << i << " never got the lock";
        EXPECT_FALSE(results[i].aborted) << "instance " << i;
        EXPECT_TRUE(results[i].saveAccepted) << "instance " << i;
        highest = std::max(highest, *results[i].fence);
    }
    EXPECT_EQ(emails.load(), 1);
    auto stored = store.read("daily");
    ASSERT_TRUE(stored);
    EXPECT_EQ(stored->fence, highest);
    EXPECT_EQ(stored->body.find("instance 0"), std::string::npos)
        << "the stale holder's work was saved";
    EXPECT_TRUE(observer().command({"GET", "lock:{report:daily}"}).isNil())
        << "a lock was left behind";
}
