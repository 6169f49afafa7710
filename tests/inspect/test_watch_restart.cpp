// The watch across a restart of its server: what it knew before is reconciled with what
// the server holds after (issue 12: rows that outlive their keys, and the window's stall).

#include <gtest/gtest.h>

#include "lockscope/inspect/lock_watch.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;

// A server killed and started again empty on the same port: the watch of the new
// connection, resumed from the old one's memory, reports every lock it knew as removed,
// and says the server restarted (its run_id changed). Before, a new watch started empty,
// so the view never heard that the old locks were gone.
TEST_F(RedisTest, WatchResumedAfterARestartRemovesTheLocksThatAreGone) {
    {
        Connection c = connect();
        c.command({"SET", "lock:{a}", "t1", "PX", "60000"});
        c.command({"SET", "lock:{b}", "t2", "PX", "60000"});
    }
    WatchMemory memory;
    {
        Connection w = connect();
        LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 10s});
        ASSERT_EQ(watch.step().changed.size(), 2u);
        EXPECT_FALSE(watch.server().runId.empty());
        memory = watch.takeMemory();
    }
    EXPECT_EQ(memory.table.size(), 2u);
    server().stop();
    server().start();  // same port, no persistence: empty
    {
        Connection c = connect();
        c.command({"SET", "lock:{b}", "new", "PX", "60000"});
    }
    Connection w = connect();
    LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 10s}, std::move(memory));
    auto u = watch.step();
    ASSERT_TRUE(u.connected);
    EXPECT_TRUE(u.rescanned);
    EXPECT_EQ(u.removed, (std::vector<std::string>{"lock:{a}"}));
    EXPECT_FALSE(u.emptied);  // a lock is left: the view removes the others one by one
    ASSERT_EQ(u.changed.size(), 1u);
    EXPECT_EQ(u.changed[0].token, "new");
    EXPECT_NE(u.restartNote.find("server restarted"), std::string::npos) << u.restartNote;
    EXPECT_EQ(watch.step().restartNote, "");  // said once
}

TEST_F(RedisTest, WatchResumedOnTheSameServerReportsNoRestart) {
    {
        Connection c = connect();
        c.command({"SET", "lock:{a}", "t1", "PX", "60000"});
    }
    WatchMemory memory;
    {
        Connection w = connect();
        LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 10s});
        watch.step();
        memory = watch.takeMemory();
    }
    Connection w = connect();
    LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 10s}, std::move(memory));
    auto u = watch.step();
    EXPECT_TRUE(u.removed.empty());
    EXPECT_TRUE(u.changed.empty());  // the same lock, still counting down
    EXPECT_EQ(u.restartNote, "");
}

// Restarted with nothing at all: the update says the server is empty (a view then drops the
// instance's rows in one reset, without looking up 100,000 keys) and still lists each key for
// the CLI's removed events. Before, a view had only the list, and took 0.7 s over 100k rows.
TEST_F(RedisTest, WatchResumedAfterARestartEmptySaysTheServerIsEmpty) {
    {
        Connection c = connect();
        for (int i = 0; i < 50; ++i)
            c.command({"SET", "lock:{" + std::to_string(i) + "}", "t", "PX", "60000"});
    }
    WatchMemory memory;
    {
        Connection w = connect();
        LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 10s});
        ASSERT_EQ(watch.step().changed.size(), 50u);
        memory = watch.takeMemory();
    }
    server().stop();
    server().start();  // same port, no persistence: empty
    Connection w = connect();
    LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 10s}, std::move(memory));
    auto u = watch.step();
    ASSERT_TRUE(u.connected);
    EXPECT_TRUE(u.rescanned);
    EXPECT_TRUE(u.emptied);
    EXPECT_EQ(u.removed.size(), 50u);
    EXPECT_TRUE(u.changed.empty());
    EXPECT_EQ(watch.table().size(), 0u);
    EXPECT_NE(u.restartNote.find("server restarted"), std::string::npos) << u.restartNote;
    // A lock taken after the restart is new again; the next empty rescan of an empty table
    // has nothing to say.
    auto next = watch.step();
    EXPECT_FALSE(next.emptied);
    Connection c = connect();
    c.command({"SET", "lock:{late}", "t", "PX", "60000"});
    watch.requestRescan();
    auto later = watch.step();
    EXPECT_FALSE(later.emptied);
    ASSERT_EQ(later.changed.size(), 1u);
    EXPECT_EQ(later.changed[0].key, "lock:{late}");
}

// Without a restart: the last lock deleted, only an ordinary key left, is empty of locks too.
TEST_F(RedisTest, WatchSaysTheServerIsEmptyWhenNoLockIsLeft) {
    Connection c = connect();
    c.command({"SET", "lock:{a}", "t1", "PX", "60000"});
    c.command({"SET", "plain", "not a lock"});
    Connection w = connect();
    LockWatch watch(w, {.pollInterval = 20ms, .rescanInterval = 10s});
    ASSERT_EQ(watch.step().changed.size(), 1u);
    c.command({"DEL", "lock:{a}"});
    watch.requestRescan();
    auto u = watch.step();  // an ordinary key is left, but no lock: empty of locks
    EXPECT_TRUE(u.emptied);
    EXPECT_EQ(u.removed, (std::vector<std::string>{"lock:{a}"}));
    EXPECT_EQ(u.restartNote, "");
}
