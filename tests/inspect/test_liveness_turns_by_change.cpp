// The liveness turns are driven by change (issue 36, the exporter's CPU): a row whose verdict
// its record alone decided (no holder record, nothing to go on) is not judged again every
// turn, only when its record changes, and in a full cycle a minute later. So each change
// between two turns must still reach its row's verdict well before that: a renewal, a
// handoff to a new holder, and a holder that dies while its key stands still (a row judged
// by its connection is never passed by). On a real redis-server, with a LockWatch and the
// watch's own NodeLiveness, as the exporter runs them (the verdict alone, keepEvidence off).
#include <gtest/gtest.h>

#include <unistd.h>
#include <array>
#include <functional>
#include <thread>

#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/lock_watch.h"
#include "redis_fixture.h"
#include "watch/node_liveness.h"

namespace {

using namespace std::chrono_literals;
using lockscope::Connection;
using lockscope::ConnectionOptions;
using lockscope::inspect::LivenessOptions;
using lockscope::inspect::LockRecord;
using lockscope::inspect::LockWatch;
using lockscope::inspect::NodeLiveness;
using lockscope::inspect::SteadyClock;
using lockscope::inspect::Verdict;

constexpr int kQuietLocks = 300;  // settled rows the turns pass by
// A cycle of turns every second: the next full one comes a minute after the first, so a
// change must be judged within kSoon for the test to tell a change-driven pass from it.
constexpr auto kCycle = 1000ms;
constexpr auto kSoon = 4s;

std::string hostName() {
    std::array<char, 256> host{};
    gethostname(host.data(), host.size() - 1);
    return host.data();
}

LivenessOptions exporterLike() {
    LivenessOptions o;
    o.clientListEvery = 200ms;
    o.confirmAbsence = 800ms;
    o.reassessEvery = kCycle;
    o.maxRowsPerTurn = 100;  // several turns a cycle
    o.keepEvidence = false;  // the exporter's tables
    return o;
}

class LivenessTurnsByChange : public lockscope::testing::RedisTest {
  protected:
    void SetUp() override {
        RedisTest::SetUp();
        for (int i = 0; i < kQuietLocks; ++i)
            observer().command(
                {"SET", "lock:{quiet" + std::to_string(i) + "}", "tok-quiet", "PX", "600000"});
        watchConnection_ = std::make_unique<Connection>(
            connect(ConnectionOptions{.commandTimeout = std::chrono::seconds(30)}));
        watch_ = std::make_unique<LockWatch>(
            *watchConnection_,
            lockscope::inspect::WatchOptions{.pollInterval = 20ms, .budget = 1.0});
        liveness_ = std::make_unique<NodeLiveness>(*watchConnection_, exporterLike());
    }

    // A holder record naming `connection`, written before the lock (as the acquire script
    // writes both at once).
    void holdWithRecord(const std::string& name, const std::string& token,
                        const std::string& connection, const std::string& pid) {
        observer().command({"HSET", "holder:{" + name + "}", "token", token, "host", hostName(),
                            "pid", pid, "connection", connection});
        observer().command({"PEXPIRE", "holder:{" + name + "}", "600000"});
        observer().command({"SET", "fence:{" + name + "}", "2"});
        observer().command({"SET", "lock:{" + name + "}", token, "PX", "600000"});
    }

    // A client connected under `name`, as a holder's connection is.
    Connection namedClient(const std::string& name) {
        Connection c = connect();
        c.command({"CLIENT", "SETNAME", name});
        return c;
    }

    // Steps the watch and its liveness until the key's verdict in the watch's table satisfies
    // `want`, or `within` passes. Returns the record as the table keeps it then.
    const LockRecord* stepUntil(const std::string& key,
                                const std::function<bool(const LockRecord&)>& want,
                                std::chrono::milliseconds within) {
        const auto deadline = SteadyClock::now() + within;
        for (;;) {
            auto update = watch_->step();
            liveness_->afterRead(*watch_, update, SteadyClock::now());
            const LockRecord* r = watch_->table().find(key);
            if (r && want(*r)) return r;
            if (SteadyClock::now() >= deadline) return r;
            std::this_thread::sleep_for(20ms);
        }
    }

    static std::function<bool(const LockRecord&)> verdictIs(Verdict v) {
        return [v](const LockRecord& r) { return r.liveness && r.liveness->verdict == v; };
    }
    static bool settled(const LockRecord& r) {
        return r.liveness && r.liveness->fromRecordAlone && r.liveness->verdict == Verdict::Unknown;
    }

    std::unique_ptr<Connection> watchConnection_;
    std::unique_ptr<LockWatch> watch_;
    std::unique_ptr<NodeLiveness> liveness_;
};

// The quiet rows are settled by their record: the turns pass them by from the second cycle.
TEST_F(LivenessTurnsByChange, RowsWithNothingOutsideTheirRecordAreSettled) {
    Connection holder = namedClient("lockscope:" + hostName() + ":999997");
    holdWithRecord("watched", "tok-watched", "lockscope:" + hostName() + ":999997", "999997");
    for (const std::string key : {"lock:{quiet7}", "lock:{quiet8}"}) {
        const LockRecord* quiet = stepUntil(key, settled, 5s);
        ASSERT_TRUE(quiet);
        EXPECT_TRUE(settled(*quiet))
            << key << ": no holder record, or nothing to go on: decided by its record alone";
    }
    const LockRecord* watched = stepUntil("lock:{watched}", verdictIs(Verdict::Alive), kSoon);
    ASSERT_TRUE(watched && watched->liveness);
    EXPECT_EQ(watched->liveness->verdict, Verdict::Alive);
    EXPECT_FALSE(watched->liveness->fromRecordAlone)
        << "a verdict read from CLIENT LIST changes while the record stands still";
}

// Once a cycle left every row settled while the table stood still, the cycles after it walk
// nothing until the table changes or the next full cycle (the window's fifty connections of
// 20,000 quiet locks walked their tables every 2 s to find no row to judge).
TEST_F(LivenessTurnsByChange, AQuietTableIsNotWalkedUntilItChanges) {
    ASSERT_TRUE(stepUntil("lock:{quiet1}", settled, 5s));
    (void)stepUntil("lock:{none}", verdictIs(Verdict::Alive), kCycle + 200ms);  // a cycle on
    const auto before = liveness_->rowsWalked();
    (void)stepUntil("lock:{none}", verdictIs(Verdict::Alive), 3 * kCycle);
    // Three cycles of 300 rows walked 900 rows before; now at most the one in progress.
    EXPECT_LE(liveness_->rowsWalked() - before, std::uint64_t(kQuietLocks));

    observer().command({"SET", "lock:{arrived}", "tok-arrived", "PX", "600000"});
    const auto changedAt = liveness_->rowsWalked();
    (void)stepUntil("lock:{none}", verdictIs(Verdict::Alive), 2 * kCycle + 500ms);
    EXPECT_GE(liveness_->rowsWalked() - changedAt, std::uint64_t(kQuietLocks))
        << "a change to the table makes the next cycle walk it again";
}

// A settled row renewed between two turns is alive at once, not at the next full cycle.
TEST_F(LivenessTurnsByChange, ARenewalOfASettledRowIsSeen) {
    observer().command({"SET", "fence:{renewed}", "1"});
    observer().command({"SET", "lock:{renewed}", "tok-renewed", "PX", "60000"});
    const LockRecord* before = stepUntil("lock:{renewed}", settled, 5s);
    ASSERT_TRUE(before && settled(*before));
    std::this_thread::sleep_for(300ms);
    observer().command({"PEXPIRE", "lock:{renewed}", "600000"});  // the same token, renewed
    const LockRecord* after = stepUntil("lock:{renewed}", verdictIs(Verdict::Alive), kSoon);
    ASSERT_TRUE(after && after->liveness);
    EXPECT_EQ(after->liveness->verdict, Verdict::Alive)
        << "a renewal is evidence of life; the settled verdict was kept";
    EXPECT_GE(after->renewals, 1u);
}

// A settled row handed to a new holder (whose connection is there) is judged for that holder.
TEST_F(LivenessTurnsByChange, AHandoffOfASettledRowIsJudgedForTheNewHolder) {
    observer().command({"SET", "fence:{handed}", "1"});
    observer().command({"SET", "lock:{handed}", "tok-first", "PX", "600000"});
    const LockRecord* before = stepUntil("lock:{handed}", settled, 5s);
    ASSERT_TRUE(before && settled(*before));
    const std::string name = "lockscope:" + hostName() + ":999996";
    Connection next = namedClient(name);
    holdWithRecord("handed", "tok-second", name, "999996");
    const LockRecord* after = stepUntil("lock:{handed}", verdictIs(Verdict::Alive), kSoon);
    ASSERT_TRUE(after && after->liveness);
    EXPECT_EQ(after->token, "tok-second");
    EXPECT_EQ(after->liveness->verdict, Verdict::Alive)
        << "the new holder's connection is there; the first holder's verdict was kept"
        << lockscope::inspect::describeVerdict(*after->liveness);
}

// A holder dies between two turns while its key stands still: gone within the confirm time,
// though its record never changed.
TEST_F(LivenessTurnsByChange, AHolderDyingWhileItsKeyStandsStillIsGone) {
    const std::string name = "lockscope:" + hostName() + ":999995";
    auto holder = std::make_unique<Connection>(namedClient(name));
    holdWithRecord("dying", "tok-dying", name, "999995");
    const LockRecord* alive = stepUntil("lock:{dying}", verdictIs(Verdict::Alive), 5s);
    ASSERT_TRUE(alive && alive->liveness);
    ASSERT_EQ(alive->liveness->verdict, Verdict::Alive);
    // Past the first (full) cycle, into the cycles that pass settled rows by.
    (void)stepUntil("lock:{quiet1}", settled, 3s);
    holder.reset();  // the holder's process is gone; its lock and record stay
    const LockRecord* gone = stepUntil("lock:{dying}", verdictIs(Verdict::Gone), kSoon + 2s);
    ASSERT_TRUE(gone && gone->liveness);
    EXPECT_EQ(gone->liveness->verdict, Verdict::Gone);
    EXPECT_EQ(gone->token, "tok-dying");
}

}  // namespace
