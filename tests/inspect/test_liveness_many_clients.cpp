// Is the holder alive, on a server with 10,000 connected clients (issue 31)? CLIENT LIST is
// O(clients) on the server, so LivenessReader reads it at most once per clientListEvery for
// every lock of a pass, plus one confirming read when an absence is due, and keeps only the
// named entries; the reply is bounded by the connection's maxReplyBytes. The test opens
// 10,000 idle plain sockets (maxclients raised), then checks that the verdicts are still
// right (a named holder connection found among them: alive; a missing one: gone once
// confirmed) with a handful of CLIENT LIST reads.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "liveness_support.h"
#include "redis_fixture.h"

namespace {

using namespace liveness_test;
using inspect::Verdict;
using lockscope::Connection;
using Clock = std::chrono::steady_clock;

constexpr int kIdleClients = 10'000;

class ManyClientsLiveness : public lockscope::testing::RedisTest {
  protected:
    lockscope::LocalRedisServerOptions serverOptions() const override {
        return {.configLines = {"maxclients 10100"}};
    }
    void SetUp() override {
        rlimit limit{};
        getrlimit(RLIMIT_NOFILE, &limit);
        if (limit.rlim_max < kIdleClients + 200)
            GTEST_SKIP() << "ulimit -Hn is " << limit.rlim_max << ": 10,000 sockets need more";
        limit.rlim_cur = limit.rlim_max;  // the server, started next, inherits it too
        setrlimit(RLIMIT_NOFILE, &limit);
        RedisTest::SetUp();
    }
    void TearDown() override {
        for (int fd : idle_) close(fd);
        RedisTest::TearDown();
    }
    void openIdleClients(int count) {
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(static_cast<std::uint16_t>(server().port()));
        inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
        for (int i = 0; i < count; ++i) {
            int fd = socket(AF_INET, SOCK_STREAM, 0);
            ASSERT_GE(fd, 0);
            ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
            idle_.push_back(fd);
        }
    }
    void writeOwnLock(const std::string& name, const std::string& connection) {
        observer().command({"SET", "lock:{" + name + "}", "tok-" + name, "PX", "60000"});
        observer().command({"SET", "fence:{" + name + "}", "1"});
        observer().command({"HSET", "holder:{" + name + "}", "token", "tok-" + name, "host", "h",
                            "pid", connection.substr(connection.rfind(':') + 1), "connection",
                            connection});
    }
    std::vector<int> idle_;
};

TEST_F(ManyClientsLiveness, VerdictsStayRightAmongTenThousandClientsWithFewClientListReads) {
    openIdleClients(kIdleClients);
    Connection holder = connect();
    holder.command({"CLIENT", "SETNAME", "lockscope:h:101"});
    writeOwnLock("alive", "lockscope:h:101");
    writeOwnLock("dead", "lockscope:h:202");
    // The server sees every socket (it accepts them as fast as we connect).
    std::int64_t connected = 0;
    for (int i = 0; i < 50 && connected < kIdleClients; ++i) {
        std::string info(observer().command({"INFO", "clients"}).text());
        auto at = info.find("connected_clients:");
        connected = std::stoll(info.substr(at + 18));
        if (connected < kIdleClients) std::this_thread::sleep_for(100ms);
    }
    ASSERT_GE(connected, kIdleClients);

    Connection c = connect();
    inspect::LivenessOptions options;  // CLIENT LIST at most every 10 s, as by default
    options.confirmAbsence = 1500ms;
    inspect::LivenessReader reader(c, options);
    inspect::Scanner scanner(c, {});
    auto started = Clock::now();
    auto first = scanner.readKeys({"lock:{alive}", "lock:{dead}"});
    reader.assess(first);
    auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started);
    ASSERT_EQ(first.size(), 2u);
    ASSERT_TRUE(first[0].liveness && first[1].liveness);
    EXPECT_EQ(first[0].liveness->verdict, Verdict::Alive) << evidenceText(*first[0].liveness);
    EXPECT_EQ(first[1].liveness->verdict, Verdict::Unknown) << evidenceText(*first[1].liveness);
    std::printf("one pass with CLIENT LIST over %lld clients: %lld ms\n",
                static_cast<long long>(connected), static_cast<long long>(took.count()));
    EXPECT_LT(took, 3s);

    // Passes every 200 ms for 2 s: the absence is confirmed by one more read, no more.
    std::optional<inspect::LockRecord> dead;
    for (int i = 0; i < 10; ++i) {
        std::this_thread::sleep_for(200ms);
        auto batch = scanner.readKeys({"lock:{alive}", "lock:{dead}"});
        reader.assess(batch);
        ASSERT_EQ(batch.size(), 2u);
        EXPECT_EQ(batch[0].liveness->verdict, Verdict::Alive) << evidenceText(*batch[0].liveness);
        dead = batch[1];
    }
    ASSERT_TRUE(dead && dead->liveness);
    EXPECT_EQ(dead->liveness->verdict, Verdict::Gone) << evidenceText(*dead->liveness);
    EXPECT_LE(reader.clientListReads(), 2u) << "CLIENT LIST read more often than its budget";
}

}  // namespace
