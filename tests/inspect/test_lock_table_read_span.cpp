// A reading is stamped when its read was sent; the server answers it somewhere before the
// reply. A read the server answered late (a long pipeline, a loaded machine, a blocked
// server) reads a PTTL higher than the send-time countdown expects, and must not count as a
// renewal: on a loaded machine such reads made the window's fleet of watches report 15-30k
// "changed" records a second for locks nobody touched (issue 36). A real renewal still counts.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "lockscope/inspect/lock_table.h"
#include "lockscope/inspect/scanner.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;

namespace {

class LockTableReadSpan : public lockscope::testing::RedisTest {
  protected:
    LocalRedisServerOptions serverOptions() const override {
        return {.configLines = {"enable-debug-command local"}};  // DEBUG SLEEP blocks it
    }

    LockRecord readOnce(Connection& c) {
        // A watcher's re-read: the PTTL pipeline itself, no SCAN ahead of it to absorb a block.
        auto records = Scanner(c).readKeys({"lock:{report}"});
        EXPECT_EQ(records.size(), 1u);
        return records.empty() ? LockRecord{} : records.front();
    }

    // Reads the lock while the server is blocked for `blocked`: the PTTL is answered late.
    LockRecord readWhileBlocked(Connection& c, std::chrono::milliseconds blocked) {
        std::jthread sleeper([&] {
            Connection other = connect();
            other.command({"DEBUG", "SLEEP", std::to_string(double(blocked.count()) / 1000)});
        });
        std::this_thread::sleep_for(30ms);  // let DEBUG SLEEP start
        return readOnce(c);
    }
};

}  // namespace

TEST_F(LockTableReadSpan, ALateAnswerIsNoRenewalButARenewalStillCounts) {
    observer().command({"SET", "lock:{report}", "tok-1", "PX", "60000"});
    Connection c = connect();
    LockTable table;

    const LockRecord late = readWhileBlocked(c, 400ms);
    EXPECT_GE(late.readSpanMs, 300) << "the read waited for the blocked server";
    table.observe(late);
    table.observe(readOnce(c));  // answered at once: its PTTL is ~370 ms above the countdown
    EXPECT_EQ(table.find("lock:{report}")->renewals, 0u) << "a late answer is not a renewal";

    observer().command({"PEXPIRE", "lock:{report}", "120000"});
    table.observe(readOnce(c));
    EXPECT_EQ(table.find("lock:{report}")->renewals, 1u) << "a real renewal still counts";
}

TEST_F(LockTableReadSpan, ALateAnswerIsNotATtlCutShort) {
    observer().command({"SET", "lock:{report}", "tok-1", "PX", "60000"});
    Connection c = connect();
    LockTable table;
    table.observe(readOnce(c));
    // Answered 1.4 s after it was sent: the countdown from the send expects 1.4 s more.
    EXPECT_FALSE(table.observe(readWhileBlocked(c, 1'400ms)))
        << "a late answer reads lower than the countdown, not a lease cut short";
    observer().command({"PEXPIRE", "lock:{report}", "5000"});
    EXPECT_TRUE(table.observe(readOnce(c))) << "a real cut is a change";
}
