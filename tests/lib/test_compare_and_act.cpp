// Compare-and-act on a real server: the script path where scripting is allowed, the
// WATCH/MULTI/EXEC path for an ACL user denied @scripting, and 1000 trials where another
// client changes the key between our observation and our delete: zero wrong deletions.

#include <atomic>
#include <random>
#include <thread>

#include "lockscope/compare_and_act.h"
#include "lockscope/errors.h"
#include "no_scripting_server.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;

namespace {

class NoScriptingServer : public lockscope::testing::NoScriptingServerTest {};

}  // namespace

TEST_F(RedisTest, ScriptPathDeletesOnlyTheExpectedValue) {
    Connection c = connect();
    c.command({"SET", "lock:a", "mine"});
    auto other = compareAndDelete(c, "lock:a", "theirs");
    EXPECT_FALSE(other.acted);
    EXPECT_EQ(keyCount(), 1);
    auto mine = compareAndDelete(c, "lock:a", "mine");
    EXPECT_TRUE(mine.acted);
    EXPECT_EQ(mine.path, CompareAndActPath::Script);
    EXPECT_EQ(keyCount(), 0);
}

TEST_F(NoScriptingServer, ScriptingDeniedFallsBackToWatchMultiExec) {
    Connection c = asCacheUser();
    c.command({"SET", "lock:a", "mine"});
    auto miss = compareAndExpire(c, "lock:a", "theirs", 5000ms);
    EXPECT_FALSE(miss.acted);
    EXPECT_EQ(observer().command({"PTTL", "lock:a"}).integer(), -1);
    auto hit = compareAndExpire(c, "lock:a", "mine", 5000ms);
    EXPECT_TRUE(hit.acted);
    EXPECT_EQ(hit.path, CompareAndActPath::Transaction);
    EXPECT_GT(observer().command({"PTTL", "lock:a"}).integer(), 4000);
    auto del = compareAndDelete(c, "lock:a", "mine");
    EXPECT_TRUE(del.acted);
    EXPECT_EQ(del.path, CompareAndActPath::Transaction);
    EXPECT_EQ(keyCount(), 0);
    EXPECT_FALSE(compareAndDelete(c, "lock:a", "mine").acted);  // absent: nothing to do
}

// Each trial: the key holds "old"; a racing client sets "new" at a random moment while we
// compare-and-delete "old". Deleting "old" before the change is right; deleting after it
// would remove the new holder's key. Either way "new" must be there at the end.
TEST_F(NoScriptingServer, AHolderChangeBetweenObservationAndReleaseIsNeverDeleted) {
    Connection c = asCacheUser();
    Connection racer = connect();
    std::mt19937 rng(42);
    int wrongDeletions = 0, raced = 0, deleted = 0;
    constexpr int kTrials = 1000;
    for (int trial = 0; trial < kTrials; ++trial) {
        c.command({"SET", "lock:r", "old"});
        int spin = static_cast<int>(rng() % 200);
        std::atomic<bool> go{false};
        std::thread other([&] {
            while (!go.load()) {
            }
            std::this_thread::sleep_for(std::chrono::microseconds(spin));
            racer.command({"SET", "lock:r", "new"});
        });
        go.store(true);
        auto r = compareAndDelete(c, "lock:r", "old", CompareAndActPath::Transaction);
        other.join();
        Reply now = observer().command({"GET", "lock:r"});
        if (now.type() != ReplyType::String || now.text() != "new") ++wrongDeletions;
        if (r.acted)
            ++deleted;
        else
            ++raced;
    }
    EXPECT_EQ(wrongDeletions, 0);
    EXPECT_EQ(deleted + raced, kTrials);
    std::printf(
        "compare-and-delete over WATCH/MULTI/EXEC: %d deleted before the change, %d "
        "saw the change and left the key\n",
        deleted, raced);
}
