// LockScope's own lock says who holds it (issue 31): the acquire script writes the holder
// hash holder:{name} (token, host, pid, thread, purpose, connection) with the lock's TTL, the
// extend and release scripts extend and delete it, and the connection is named
// lockscope:<host>:<pid> unless the user named it.

#include <pthread.h>
#include <unistd.h>

#include <array>
#include <thread>

#include "lockscope/errors.h"
#include "lockscope/hold_lock.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;
using Clock = std::chrono::steady_clock;

namespace {

std::string hostName() {
    std::array<char, 256> host{};
    gethostname(host.data(), host.size() - 1);
    return host.data();
}

std::string field(Connection& c, const std::string& key, const std::string& name) {
    Reply r = c.command({"HGET", key, name});
    return r.isNil() ? std::string("<nil>") : std::string(r.text());
}

}  // namespace

// Before: the lock held a random token and nothing else; nobody could tell who held it.
TEST_F(RedisTest, AcquireWritesTheHolderHashWithTheLockAndNamesTheConnection) {
    pthread_setname_np(pthread_self(), "report-maker");
    RedisLock lock(connect(), "nightly",
                   {.ttl = 10'000ms, .holder = {.purpose = "nightly report"}});
    ASSERT_EQ(lock.holderKey(), "holder:{nightly}") << "same hash tag as lock:{nightly}";
    ASSERT_TRUE(lock.acquire());
    Connection& c = observer();
    const std::string& h = lock.holderKey();
    EXPECT_EQ(field(c, h, "token"), lock.token());
    EXPECT_EQ(field(c, h, "host"), hostName());
    EXPECT_EQ(field(c, h, "pid"), std::to_string(getpid()));
    EXPECT_EQ(field(c, h, "thread"), "report-maker");
    EXPECT_EQ(field(c, h, "purpose"), "nightly report");
    const std::string ours = "lockscope:" + hostName() + ":" + std::to_string(getpid());
    EXPECT_EQ(field(c, h, "connection"), ours);
    EXPECT_EQ(lock.connection()->command({"CLIENT", "GETNAME"}).text(), ours);
    auto holderTtl = c.command({"PTTL", h}).integer();
    EXPECT_GT(holderTtl, 9'000);
    EXPECT_LE(holderTtl, c.command({"PTTL", lock.key()}).integer() + 5);
    EXPECT_TRUE(lock.release());
    EXPECT_EQ(c.command({"EXISTS", h}).integer(), 0) << "released with the lock";
    EXPECT_EQ(keyCount(), 1) << "only the fence counter is left";
}

TEST_F(RedisTest, ExtendAndTheWatchdogRenewTheHolderHashWithTheLock) {
    {
        RedisLock lock(connect(), "renewed", {.ttl = 1'000ms});
        ASSERT_TRUE(lock.acquire());
        std::this_thread::sleep_for(500ms);
        ASSERT_TRUE(lock.extend());
        EXPECT_GT(observer().command({"PTTL", lock.holderKey()}).integer(), 800);
        ASSERT_TRUE(lock.release());
    }

    std::string holderKey;
    {
        auto held = holdLock(endpoint(), "watched", Clock::now() + 1s, {.ttl = 300ms});
        ASSERT_TRUE(held);
        holderKey = held->lock().holderKey();
        std::this_thread::sleep_for(800ms);  // more than two TTLs: the watchdog renews
        EXPECT_EQ(field(observer(), holderKey, "token"), held->lock().token());
        // The lock's and the renewing connection carry the name.
        std::string clients(observer().command({"CLIENT", "LIST"}).text());
        const std::string ours = "name=lockscope:" + hostName() + ":" + std::to_string(getpid());
        std::size_t named = 0;
        for (auto at = clients.find(ours); at != std::string::npos; at = clients.find(ours, at + 1))
            ++named;
        EXPECT_EQ(named, 2u) << clients;
    }
    EXPECT_EQ(observer().command({"EXISTS", holderKey}).integer(), 0);
}

TEST_F(RedisTest, AUserNamedConnectionKeepsItsNameAndTheHashRecordsIt) {
    auto c = std::make_shared<Connection>(connect());
    c->command({"CLIENT", "SETNAME", "billing-worker-7"});
    RedisLock lock(c, "named");
    ASSERT_TRUE(lock.acquire());
    EXPECT_EQ(c->command({"CLIENT", "GETNAME"}).text(), "billing-worker-7");
    EXPECT_EQ(field(observer(), lock.holderKey(), "connection"), "billing-worker-7");
    EXPECT_TRUE(lock.release());
}

TEST_F(RedisTest, PublishOffWritesNoHolderHashAndNamesNothing) {
    auto c = std::make_shared<Connection>(connect());
    RedisLock lock(c, "quiet", {.holder = {.publish = false}});
    EXPECT_TRUE(lock.holderKey().empty());
    ASSERT_TRUE(lock.acquire());
    EXPECT_EQ(keyCount(), 2) << "the lock and its fence only";
    EXPECT_TRUE(c->command({"CLIENT", "GETNAME"}).isNil());
    EXPECT_TRUE(lock.release());
}

// A hash some other writer left under the holder key is not the lock's to extend or delete.
TEST_F(RedisTest, ReleaseLeavesAHolderHashThatNamesAnotherToken) {
    RedisLock lock(connect(), "shared-hash", {.ttl = 5'000ms});
    ASSERT_TRUE(lock.acquire());
    observer().command({"HSET", lock.holderKey(), "token", "someone-else"});
    EXPECT_TRUE(lock.release());
    EXPECT_EQ(field(observer(), lock.holderKey(), "token"), "someone-else");
}

TEST_F(RedisTest, BadHolderOptionsAreRefusedBeforeAnythingIsSent) {
    auto c = std::make_shared<Connection>(connect());
    EXPECT_THROW(RedisLock(c, "p", {.holder = {.prefix = "lock:"}}), InvalidArgumentError);
    EXPECT_THROW(RedisLock(c, "p", {.holder = {.prefix = "fence:"}}), InvalidArgumentError);
    EXPECT_THROW(RedisLock(c, "p", {.holder = {.prefix = "h{x}:"}}), InvalidArgumentError);
    EXPECT_THROW(RedisLock(c, "p", {.holder = {.purpose = "two\nlines"}}), InvalidArgumentError);
    EXPECT_THROW(RedisLock(c, "p", {.holder = {.purpose = std::string("bin\0ary", 7)}}),
                 InvalidArgumentError);
    EXPECT_THROW(RedisLock(c, "p", {.holder = {.purpose = std::string(257, 'p')}}),
                 InvalidArgumentError);
    // Off, the holder prefix is not used, so it is not checked.
    EXPECT_NO_THROW(RedisLock(c, "p", {.holder = {.publish = false, .prefix = "lock:"}}));
    EXPECT_EQ(c->commandsSent(), 0u);
    EXPECT_EQ(keyCount(), 0);
}

// CLIENT denied by ACL: the lock still works, the hash says no connection name.
TEST_F(RedisTest, ClientDeniedStillLocksAndRecordsNoConnectionName) {
    observer().command({"ACL", "SETUSER", "locker", "on", ">pw", "~*", "+@all", "-client"});
    ConnectionOptions options;
    Endpoint e = endpoint();
    e.user = "locker";
    e.password = "pw";
    RedisLock lock(Connection::open(e, options), "denied");
    ASSERT_TRUE(lock.acquire());
    EXPECT_EQ(field(observer(), lock.holderKey(), "token"), lock.token());
    EXPECT_EQ(field(observer(), lock.holderKey(), "connection"), "<nil>");
    EXPECT_TRUE(lock.release());
}
