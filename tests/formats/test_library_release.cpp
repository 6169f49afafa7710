// Each library-specific release on a real server, with the waiter that library uses: a
// subscriber on the unlock channel (Redisson, Spring) or a client blocked on the digest's
// QUEUED list (sidekiq-unique-jobs). The waiter must wake; a holder that changed since it was
// seen must be left alone, with nothing published.

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <future>
#include <thread>

#include "formats_test_support.h"
#include "lockscope/inspect/formats/lock_families.h"
#include "lockscope/inspect/library_release.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::inspect;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;
using lockscope::testing::TempDir;

namespace {

class LibraryReleaseTest : public RedisTest {
  protected:
    // A client subscribed to `channel`, ready before the release is sent.
    Connection subscriber(const std::string& channel) {
        Connection s = connect();
        s.command({"SUBSCRIBE", channel});
        return s;
    }
    // The next message on a subscriber within `timeout`, or "" when none came.
    static std::string nextMessage(Connection& s, std::chrono::milliseconds timeout = 2000ms) {
        if (!s.waitForReply(timeout)) return "";
        Reply m = s.receive();
        return std::string(m[2].text());
    }
    LockRecord seen(const std::string& key) {
        for (auto& r : formats_test::scanEverything(observer()))
            if (r.key == key) return r;
        throw std::runtime_error("not found: " + key);
    }
    TempDir dir;
    std::string auditPath = dir.path("audit.jsonl");
};

}  // namespace

TEST_F(LibraryReleaseTest, RedissonLockWakesTheSubscriberOnlyWhenTheFieldsAreUnchanged) {
    Connection c = connect();
    AuditLog audit(auditPath);
    LibraryRelease release(c, &audit);
    // RedissonLock.tryLockInnerAsync: hincrby name <id>:<tid> 1; pexpire name lease.
    c.command({"HINCRBY", "ledger", formats_test::kClientA + ":1", "1"});
    c.command({"PEXPIRE", "ledger", "30000"});
    LockRecord before = seen("ledger");
    ASSERT_EQ(before.kind, LockKind::RedissonLock);
    Connection waiter = subscriber("redisson_lock__channel:{ledger}");

    c.command({"HINCRBY", "ledger", formats_test::kClientA + ":1", "1"});  // re-entered since
    auto changed = release.release(before);
    EXPECT_EQ(changed.outcome, ActionOutcome::TokenChanged) << changed.message;
    EXPECT_EQ(c.command({"EXISTS", "ledger"}).integer(), 1);
    EXPECT_EQ(nextMessage(waiter, 300ms), "");  // nothing published

    auto done = release.release(seen("ledger"));
    EXPECT_EQ(done.outcome, ActionOutcome::Done) << done.message;
    EXPECT_NE(done.message.find("1 subscriber"), std::string::npos) << done.message;
    EXPECT_EQ(nextMessage(waiter), "0");  // LockPubSub.UNLOCK_MESSAGE
    EXPECT_EQ(c.command({"EXISTS", "ledger"}).integer(), 0);
    EXPECT_EQ(release.release(before).outcome, ActionOutcome::NotFound);

    std::ifstream in(auditPath);
    std::string line;
    int intents = 0, results = 0;  // each release was sent: its intent, then its result
    while (std::getline(in, line)) {
        intents += line.find(R"("phase":"intent")") != std::string::npos;
        results += line.find(R"("phase":"result")") != std::string::npos;
    }
    EXPECT_EQ(intents, 3);
    EXPECT_EQ(results, 3);
}

TEST_F(LibraryReleaseTest, FairLockWakesTheFirstThreadInTheQueue) {
    Connection c = connect();
    LibraryRelease release(c, nullptr);
    // RedissonFairLock: the holder's hash, the waiter in redisson_lock_queue:{name} and its
    // deadline in redisson_lock_timeout:{name}; unlock publishes on <channel>:<next waiter>.
    const std::string next = formats_test::kClientB + ":2";
    c.command({"HINCRBY", "ledger", formats_test::kClientA + ":1", "1"});
    c.command({"RPUSH", "redisson_lock_queue:{ledger}", next});
    c.command({"ZADD", "redisson_lock_timeout:{ledger}", "1764549391000", next});
    Connection waiter = subscriber("redisson_lock__channel:{ledger}:" + next);
    auto done = release.release(seen("ledger"));
    EXPECT_EQ(done.outcome, ActionOutcome::Done) << done.message;
    EXPECT_EQ(nextMessage(waiter), "0");
    // The queue is the waiters' own: they take the lock from it.
    EXPECT_EQ(c.command({"LLEN", "redisson_lock_queue:{ledger}"}).integer(), 1);
}

TEST_F(LibraryReleaseTest, ReadWriteLockWakesAllWaitersOnItsOwnChannel) {
    Connection c = connect();
    LibraryRelease release(c, nullptr);
    c.command({"HSET", "stock", "mode", "write", formats_test::kClientA + ":57:write", "1"});
    LockRecord before = seen("stock");
    ASSERT_EQ(before.kind, LockKind::RedissonReadWriteLock);
    Connection waiter = subscriber("redisson_rwlock:{stock}");
    auto done = release.release(before);
    EXPECT_EQ(done.outcome, ActionOutcome::Done) << done.message;
    EXPECT_EQ(nextMessage(waiter), "1");  // LockPubSub.READ_UNLOCK_MESSAGE: wake them all
    EXPECT_EQ(c.command({"EXISTS", "stock"}).integer(), 0);
}

TEST_F(LibraryReleaseTest, SidekiqDigestGoesAsOneAndTheBlockedJobWakes) {
    Connection c = connect();
    formats_test::writeEveryFormat(c);
    LibraryRelease release(c, nullptr);
    const std::string d = formats_test::kDigest;
    LockRecord locked = seen(d + ":LOCKED");
    ASSERT_EQ(locked.kind, LockKind::SidekiqUniqueJobs);
    c.command({"DEL", d + ":QUEUED"});  // an empty queue: the waiter blocks on it

    // A job waiting for the digest, as the locksmith waits: BLMOVE QUEUED -> PRIMED.
    auto waiterResult = std::async(std::launch::async, [&] {
        ConnectionOptions o;
        o.commandTimeout = 15000ms;
        Connection w = connect(o);
        auto start = std::chrono::steady_clock::now();
        Reply r = w.command({"BLMOVE", d + ":QUEUED", d + ":PRIMED", "RIGHT", "LEFT", "10"});
        return std::make_pair(r.isNil() ? std::string("(timeout)") : std::string(r.text()),
                              std::chrono::steady_clock::now() - start);
    });
    for (int i = 0; i < 200; ++i) {
        std::string info(c.command({"INFO", "clients"}).text());
        if (info.find("blocked_clients:1") != std::string::npos) break;
        std::this_thread::sleep_for(10ms);
    }

    // Another job took the digest since: refused, nothing removed.
    c.command({"HSET", d + ":LOCKED", "ffffffffffffffffffffffff", "1764549400.5"});
    EXPECT_EQ(release.release(locked).outcome, ActionOutcome::TokenChanged);
    EXPECT_EQ(c.command({"EXISTS", d + ":LOCKED", d + ":INFO", d}).integer(), 3);
    c.command({"HDEL", d + ":LOCKED", "ffffffffffffffffffffffff"});

    auto done = release.release(locked);
    EXPECT_EQ(done.outcome, ActionOutcome::Done) << done.message;
    auto [value, waited] = waiterResult.get();
    EXPECT_EQ(value, "1");  // unlock.lua's sentinel
    EXPECT_LT(waited, 5s);
    EXPECT_EQ(c.command({"EXISTS", d + ":LOCKED", d + ":INFO", d}).integer(), 0);
    EXPECT_TRUE(c.command({"ZSCORE", "uniquejobs:digests", d}).isNil());
}

TEST_F(LibraryReleaseTest, SpringPublishesTheKeyOnTheRegistryChannelAfterCompareAndDelete) {
    Connection c = connect();
    formats_test::writeEveryFormat(c);
    LibraryRelease release(c, nullptr);
    auto records = formats_test::scanEverything(c);
    recogniseSpringRegistries(records);
    LockRecord lock;
    for (auto& r : records)
        if (r.key == "orders:order-17") lock = r;
    ASSERT_EQ(lock.kind, LockKind::SpringIntegration);
    Connection waiter = subscriber("orders-channel");
    LockRecord other = lock;
    other.token = formats_test::kClientA;
    EXPECT_EQ(release.release(other).outcome, ActionOutcome::TokenChanged);
    EXPECT_EQ(nextMessage(waiter, 300ms), "");
    auto done = release.release(lock);
    EXPECT_EQ(done.outcome, ActionOutcome::Done) << done.message;
    EXPECT_EQ(nextMessage(waiter), "orders:order-17");
    EXPECT_EQ(c.command({"EXISTS", "orders:order-17"}).integer(), 0);
    EXPECT_EQ(c.command({"EXISTS", "orders:order-18"}).integer(), 1);  // its sibling stays
}

TEST_F(LibraryReleaseTest, ReadOnlyTruncatedAndOtherKindsFollowTheSafeRules) {
    ConnectionOptions ro;
    ro.readOnly = true;
    Connection readOnly = connect(ro);
    Connection c = connect();
    c.command({"HINCRBY", "ledger", formats_test::kClientA + ":1", "1"});
    LockRecord ledger = seen("ledger");
    EXPECT_EQ(LibraryRelease(readOnly, nullptr).release(ledger).outcome, ActionOutcome::Refused);
    ledger.truncated = true;
    EXPECT_EQ(LibraryRelease(c, nullptr).release(ledger).outcome, ActionOutcome::Refused);
    EXPECT_EQ(c.command({"EXISTS", "ledger"}).integer(), 1);
    // ShedLock and the others: compare-and-delete on the value seen.
    c.command({"SET", "job-lock:default:x", "ADDED:2026-12-01T00:35:31Z@h", "PX", "60000"});
    LockRecord shed = seen("job-lock:default:x");
    EXPECT_FALSE(hasLibraryRelease(shed.kind));
    EXPECT_EQ(LibraryRelease(c, nullptr).release(shed).outcome, ActionOutcome::Done);
    EXPECT_EQ(redissonChannel("redisson_lock__channel", "a{b}"), "redisson_lock__channel:a{b}");
}
