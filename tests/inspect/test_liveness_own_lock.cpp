// Is the holder of LockScope's own lock alive (issue 31)? A forked child holds lock:{name}
// with the library (holder:{name} written by the acquire script, its connections named
// lockscope:<host>:<pid>, a watchdog renewing); the test judges the lock with LivenessReader
// while it runs, while it is paused (SIGSTOP, shorter than its lease) and after kill -9, and
// with forged names, junk or missing holder records and CLIENT denied by ACL.
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>  // NOLINT(modernize-deprecated-headers): POSIX kill(), not in <csignal>
#include <sys/wait.h>
#include <unistd.h>

#include <array>

#include "liveness_support.h"
#include "lockscope/hold_lock.h"
#include "lockscope/redis_lock.h"
#include "redis_fixture.h"

namespace {

using namespace liveness_test;
using inspect::Verdict;
using lockscope::Connection;
using lockscope::Endpoint;
using Clock = std::chrono::steady_clock;

constexpr auto kLease = 10'000ms;  // the child's TTL: its watchdog renews every ~3.3 s

inspect::LivenessOptions quickOptions() {
    inspect::LivenessOptions o;
    o.clientListEvery = 300ms;
    o.confirmAbsence = 1500ms;
    return o;
}

std::string hostName() {
    std::array<char, 256> host{};
    gethostname(host.data(), host.size() - 1);
    return host.data();
}

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// A process that holds lock:{name} with the library until it is killed.
class ForkedHolder {
  public:
    ForkedHolder(const Endpoint& endpoint, const std::string& name) {
        int fds[2];
        EXPECT_EQ(pipe(fds), 0);
        pid_ = fork();
        if (pid_ == 0) {
            close(fds[0]);
            holdForever(endpoint, name, fds[1]);
        }
        close(fds[1]);
        fd_ = fds[0];
    }
    ~ForkedHolder() {
        if (pid_ > 0) {
            kill(pid_, SIGCONT);
            kill(pid_, SIGKILL);
            waitpid(pid_, nullptr, 0);
        }
        close(fd_);
    }
    ForkedHolder(const ForkedHolder&) = delete;
    ForkedHolder& operator=(const ForkedHolder&) = delete;

    // True once the child says it holds the lock.
    bool held() {
        char c = 0;
        pollfd p{fd_, POLLIN, 0};
        return poll(&p, 1, 10'000) == 1 && read(fd_, &c, 1) == 1 && c == 'H';
    }
    pid_t pid() const { return pid_; }
    void signal(int sig) const { kill(pid_, sig); }
    void killHard() {
        kill(pid_, SIGKILL);
        waitpid(pid_, nullptr, 0);
    }

  private:
    [[noreturn]] static void holdForever(const Endpoint& endpoint, const std::string& name,
                                         int fd) {
        try {
            pthread_setname_np(pthread_self(), "holder-child");
            auto held = lockscope::holdLock(endpoint, name, Clock::now() + 5s,
                                            {.ttl = kLease, .holder = {.purpose = "kill test"}});
            if (held && write(fd, "H", 1) == 1)
                for (;;) pause();
        } catch (...) {
        }
        _exit(1);
    }

    pid_t pid_ = -1;
    int fd_ = -1;
};

class OwnLockLiveness : public lockscope::testing::RedisTest {
  protected:
    void SetUp() override {
        RedisTest::SetUp();
        connection_.emplace(openReaderConnection());
        reader_ = std::make_unique<inspect::LivenessReader>(*connection_, quickOptions());
    }
    // The inspector's connection (the fixture's server runs by then).
    virtual Connection openReaderConnection() { return connect(); }

    std::optional<inspect::LockRecord> look(const std::string& key) {
        return judge(*connection_, *reader_, key);
    }

    // Polls until the verdict is `want` or `within` passes; every verdict seen goes to seen.
    std::optional<inspect::LockRecord> until(const std::string& key, Verdict want,
                                             std::chrono::milliseconds within,
                                             std::vector<Verdict>* seen = nullptr) {
        auto deadline = Clock::now() + within;
        std::optional<inspect::LockRecord> last;
        while (Clock::now() < deadline) {
            last = look(key);
            if (last && last->liveness) {
                if (seen) seen->push_back(last->liveness->verdict);
                if (last->liveness->verdict == want) return last;
            }
            std::this_thread::sleep_for(200ms);
        }
        return last;
    }

    // A lock:{name} written by hand with its fence, as the library writes it.
    void writeLock(const std::string& name, const std::string& token) {
        observer().command({"SET", "lock:{" + name + "}", token, "PX", "60000"});
        observer().command({"SET", "fence:{" + name + "}", "1"});
    }

    std::optional<Connection> connection_;
    std::unique_ptr<inspect::LivenessReader> reader_;
};

TEST_F(OwnLockLiveness, KilledHolderGoesFromAliveToGoneWithinTheConfirmTime) {
    ForkedHolder holder(endpoint(), "reports");
    ASSERT_TRUE(holder.held());
    const std::string name = "lockscope:" + hostName() + ":" + std::to_string(holder.pid());
    std::vector<Verdict> before;
    auto alive = until("lock:{reports}", Verdict::Alive, 5s, &before);
    ASSERT_TRUE(alive && alive->liveness);
    EXPECT_EQ(alive->kind, inspect::LockKind::Guide);
    std::string text = evidenceText(*alive->liveness);
    ASSERT_EQ(alive->liveness->verdict, Verdict::Alive) << text;
    EXPECT_TRUE(has(text, "held by pid " + std::to_string(holder.pid()) + " on host \"" +
                              hostName() + "\", thread \"holder-child\", for \"kill test\""))
        << text;
    EXPECT_TRUE(has(text, "its connection \"" + name + "\" is connected")) << text;
    EXPECT_EQ(std::count(before.begin(), before.end(), Verdict::Gone), 0);

    holder.killHard();
    const auto killedAt = Clock::now();
    std::vector<Verdict> after;
    auto gone = until("lock:{reports}", Verdict::Gone, 6s, &after);
    ASSERT_TRUE(gone && gone->liveness);
    text = evidenceText(*gone->liveness);
    ASSERT_EQ(gone->liveness->verdict, Verdict::Gone) << text;
    EXPECT_TRUE(has(text, "no connection named \"" + name + "\" (the holder's own) in CLIENT LIST"))
        << text;
    // The absence is confirmed by a second read confirmAbsence later: gone within it, plus
    // a CLIENT LIST period and the polling.
    EXPECT_LT(Clock::now() - killedAt, 1500ms + 300ms + 1000ms);
}

TEST_F(OwnLockLiveness, HolderPausedShorterThanItsLeaseIsNeverGone) {
    ForkedHolder holder(endpoint(), "slow");
    ASSERT_TRUE(holder.held());
    ASSERT_TRUE(until("lock:{slow}", Verdict::Alive, 5s));
    holder.signal(SIGSTOP);  // no renewal for 5 s of its 10 s lease; its sockets stay open
    std::vector<Verdict> seen;
    auto end = Clock::now() + 5s;
    while (Clock::now() < end) {
        auto r = look("lock:{slow}");
        ASSERT_TRUE(r && r->liveness);
        seen.push_back(r->liveness->verdict);
        EXPECT_NE(r->liveness->verdict, Verdict::Gone) << evidenceText(*r->liveness);
        std::this_thread::sleep_for(200ms);
    }
    holder.signal(SIGCONT);
    EXPECT_GT(seen.size(), 10u);
    EXPECT_EQ(std::count(seen.begin(), seen.end(), Verdict::Alive), static_cast<long>(seen.size()));
}

// The holder record names a connection nobody has (the holder died) and the lease runs down:
// gone once confirmed. A renewal between the two reads holds it back.
TEST_F(OwnLockLiveness, AbsentConnectionIsGoneOnlyWhenTheLeaseWasNotRenewed) {
    const std::string dead = "lockscope:" + hostName() + ":999999";
    for (const std::string lock : {"still", "renewing"}) {
        writeLock(lock, "tok-" + lock);
        observer().command({"HSET", "holder:{" + lock + "}", "token", "tok-" + lock, "host",
                            hostName(), "pid", "999999", "connection", dead});
    }
    auto first = look("lock:{renewing}");
    ASSERT_TRUE(first && first->liveness);
    EXPECT_EQ(first->liveness->verdict, Verdict::Unknown) << evidenceText(*first->liveness);
    EXPECT_TRUE(has(evidenceText(*first->liveness), "a second read confirms it"));
    (void)look("lock:{still}");
    std::this_thread::sleep_for(1700ms);
    observer().command({"PEXPIRE", "lock:{renewing}", "60000"});  // renewed in between
    auto renewed = look("lock:{renewing}");
    ASSERT_TRUE(renewed && renewed->liveness);
    // The renewal itself is evidence of life (the renewal tracker); never gone.
    EXPECT_NE(renewed->liveness->verdict, Verdict::Gone) << evidenceText(*renewed->liveness);
    EXPECT_TRUE(has(evidenceText(*renewed->liveness), "the lease was renewed since"));
    auto still = look("lock:{still}");
    ASSERT_TRUE(still && still->liveness);
    EXPECT_EQ(still->liveness->verdict, Verdict::Gone) << evidenceText(*still->liveness);
}

// Forged and junk records never make a live holder gone, and never judge by what they say.
TEST_F(OwnLockLiveness, ForgedNamesAndJunkOrMissingRecordsAreNeverAFalseGone) {
    ForkedHolder holder(endpoint(), "forged");
    ASSERT_TRUE(holder.held());
    // A client named as the holder's process on another pid: not the holder's connection.
    Connection forger = connect();
    forger.command({"CLIENT", "SETNAME", "lockscope:" + hostName() + ":1"});
    writeLock("missing", "tok-missing");
    writeLock("other-token", "tok-mine");
    observer().command({"HSET", "holder:{other-token}", "token", "tok-theirs", "host", "h", "pid",
                        "1", "connection", "lockscope:h:1"});
    const std::vector<std::pair<std::string, std::vector<std::string>>> junk = {
        {"pid-junk", {"pid", "12ab"}},
        {"pid-negative", {"pid", "-4"}},
        {"host-binary", {"host", std::string("h\0\x01st", 5)}},
        {"host-huge", {"host", std::string(100'000, 'h')}},
        {"no-token", {"token", ""}},
    };
    for (const auto& [lock, field] : junk) {
        writeLock(lock, "tok-" + lock);
        observer().command({"HSET", "holder:{" + lock + "}", "token", "tok-" + lock, "host",
                            hostName(), "pid", "999999", "connection", "lockscope:x:999999"});
        observer().command({"HSET", "holder:{" + lock + "}", field[0], field[1]});
    }
    // Two looks, more than confirmAbsence apart: a gone would show by the second.
    for (int pass = 0; pass < 2; ++pass) {
        auto live = look("lock:{forged}");
        ASSERT_TRUE(live && live->liveness);
        EXPECT_EQ(live->liveness->verdict, Verdict::Alive) << evidenceText(*live->liveness);
        auto missing = look("lock:{missing}");
        ASSERT_TRUE(missing && missing->liveness);
        EXPECT_EQ(missing->liveness->verdict, Verdict::Unknown);
        EXPECT_TRUE(has(evidenceText(*missing->liveness), "no holder record \"holder:{missing}\""));
        auto other = look("lock:{other-token}");
        ASSERT_TRUE(other && other->liveness);
        EXPECT_EQ(other->liveness->verdict, Verdict::Unknown);
        EXPECT_TRUE(has(evidenceText(*other->liveness), "names another token"));
        for (const auto& [lock, field] : junk) {
            auto r = look("lock:{" + lock + "}");
            ASSERT_TRUE(r && r->liveness) << lock;
            EXPECT_EQ(r->liveness->verdict, Verdict::Unknown) << lock;
            EXPECT_TRUE(has(evidenceText(*r->liveness), "is malformed"))
                << lock << ": " << evidenceText(*r->liveness);
        }
        std::this_thread::sleep_for(1700ms);
    }
    // The holder dies while the forged other-pid name stays: that name does not keep it alive.
    holder.killHard();
    auto gone = until("lock:{forged}", Verdict::Gone, 6s);
    ASSERT_TRUE(gone && gone->liveness);
    EXPECT_EQ(gone->liveness->verdict, Verdict::Gone) << evidenceText(*gone->liveness);
}

class OwnLockClientDenied : public OwnLockLiveness {
  protected:
    Connection openReaderConnection() override {
        observer().command(
            {"ACL", "SETUSER", "looker", "on", ">pw", "~*", "+@all", "-client", "+client|setname"});
        Endpoint e = endpoint();
        e.user = "looker";
        e.password = "pw";
        return Connection::open(e);
    }
};

TEST_F(OwnLockClientDenied, VerdictStaysUnknownAndSaysWhy) {
    ForkedHolder holder(endpoint(), "denied");
    ASSERT_TRUE(holder.held());
    for (int pass = 0; pass < 2; ++pass) {
        auto r = look("lock:{denied}");
        ASSERT_TRUE(r && r->liveness);
        const std::string text = evidenceText(*r->liveness);
        // Unknown, or alive once a watchdog renewal was seen: never gone.
        EXPECT_NE(r->liveness->verdict, Verdict::Gone) << text;
        EXPECT_TRUE(has(text, "CLIENT LIST is denied to this user")) << text;
        EXPECT_TRUE(has(text, "held by pid " + std::to_string(holder.pid()))) << text;
        std::this_thread::sleep_for(1700ms);
    }
    holder.killHard();
    std::this_thread::sleep_for(1700ms);
    auto r = look("lock:{denied}");
    ASSERT_TRUE(r && r->liveness);
    EXPECT_NE(r->liveness->verdict, Verdict::Gone) << evidenceText(*r->liveness);
}

}  // namespace

namespace {

// Before: a wide pattern listed holder:{name} as a lock of unknown kind, next to its lock.
TEST_F(OwnLockLiveness, AWidePatternListsTheHolderRecordAsNoLock) {
    lockscope::RedisLock lock(connect(), "wide", {.ttl = 10'000ms});
    ASSERT_TRUE(lock.acquire());
    inspect::ScanOptions options;
    options.patterns = {"*"};
    auto records = inspect::Scanner(*connection_, options).collect();
    std::size_t locks = 0;
    for (const auto& r : records) {
        if (r.key == "holder:{wide}") {
            EXPECT_EQ(r.kind, inspect::LockKind::NotALock);
        }
        if (r.key == "lock:{wide}") {
            EXPECT_EQ(r.kind, inspect::LockKind::Guide);
        }
        locks += r.kind != inspect::LockKind::NotALock && r.key != "fence:{wide}";
    }
    EXPECT_EQ(locks, 1u);
}

}  // namespace
