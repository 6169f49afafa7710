// The exporter's HTTP server under idle and slow clients, with real sockets: connections
// that send nothing, and clients that send one header line every second and never finish
// their request. A real scrape (curl) is still answered at once, and the server ends the
// requests that do not arrive whole within its request timeout. Before, two idle sockets
// held both of civetweb's worker threads and a scrape got nothing for 30 s.

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>

#include "lockscope/exporter/lock_exporter.h"
#include "redis_fixture.h"

using namespace lockscope;
using namespace lockscope::exporter;
using namespace std::chrono_literals;
using lockscope::testing::RedisTest;

namespace {

using Clock = std::chrono::steady_clock;

int connectTo(int port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    if (fd >= 0 && connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

// True when the server closed `fd` (or reset it) within `within`.
bool closedByServer(int fd, std::chrono::milliseconds within) {
    const auto until = Clock::now() + within;
    while (Clock::now() < until) {
        pollfd p{fd, POLLIN, 0};
        if (poll(&p, 1, 100) > 0) {
            char buf[512];
            ssize_t n = recv(fd, buf, sizeof buf, MSG_DONTWAIT);
            if (n <= 0) return true;
        }
    }
    return false;
}

struct Scrape {
    bool answered = false;
    std::chrono::milliseconds took{0};
};

Scrape scrape(int port) {
    const auto start = Clock::now();
    const std::string command =
        "curl -sS --max-time 8 http://127.0.0.1:" + std::to_string(port) + "/metrics 2>&1";
    std::string out;
    if (FILE* p = popen(command.c_str(), "r")) {
        std::array<char, 4096> buf{};
        while (std::size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
        pclose(p);
    }
    return {out.find("lockscope_") != std::string::npos,
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start)};
}

class SlowClientTest : public RedisTest {
  protected:
    void SetUp() override {
        RedisTest::SetUp();
        observer().command({"SET", "lock:{a}", "tok", "PX", "60000"});
        ExporterOptions o;
        o.listen = "127.0.0.1:0";
        o.instances = {endpoint()};
        o.interval = 3600s;
        exporter_ = std::make_unique<LockExporter>(o);
        exporter_->start();
        exporter_->censusOnce();
    }
    void TearDown() override {
        stopDrippers_ = true;
        for (auto& t : drippers_) t.join();
        for (int fd : sockets_) close(fd);
        exporter_.reset();
        RedisTest::TearDown();
    }
    int port() const { return exporter_->port(); }
    int idleSocket() {
        int fd = connectTo(port());
        EXPECT_GE(fd, 0);
        sockets_.push_back(fd);
        return fd;
    }
    // A client that starts a request and sends one more header line every second.
    int drippingClient() {
        int fd = idleSocket();
        drippers_.emplace_back([this, fd] {
            std::string line = "GET /metrics HTTP/1.1\r\n";
            for (int i = 0; !stopDrippers_ && i < 60; ++i) {
                if (send(fd, line.data(), line.size(), MSG_NOSIGNAL) < 0) return;
                line = "X-Slow-" + std::to_string(i) + ": 1\r\n";
                for (int t = 0; t < 10 && !stopDrippers_; ++t) std::this_thread::sleep_for(100ms);
            }
        });
        return fd;
    }

  private:
    std::unique_ptr<LockExporter> exporter_;
    std::vector<int> sockets_;
    std::vector<std::thread> drippers_;
    std::atomic<bool> stopDrippers_{false};
};

}  // namespace

TEST_F(SlowClientTest, AScrapeIsAnsweredWhileIdleAndDrippingClientsHoldConnections) {
    for (int i = 0; i < 6; ++i) idleSocket();
    drippingClient();
    drippingClient();
    std::this_thread::sleep_for(300ms);  // every one of them has a worker by now
    Scrape s = scrape(port());
    EXPECT_TRUE(s.answered);
    EXPECT_LT(s.took, 2000ms);
}

TEST_F(SlowClientTest, RequestsThatNeverArriveWholeAreEndedByTheServer) {
    int idle = idleSocket();
    int dripping = drippingClient();
    // civetweb's own default was 30 s; the exporter's request timeout is a few seconds, and
    // a header line every second does not reset it.
    EXPECT_TRUE(closedByServer(idle, 8000ms));
    EXPECT_TRUE(closedByServer(dripping, 8000ms));
    EXPECT_TRUE(scrape(port()).answered);
}

// More stray connections than workers: a scrape waits at most for the request timeout.
TEST_F(SlowClientTest, EvenWithEveryWorkerHeldAScrapeIsAnsweredWithinTheRequestTimeout) {
    for (int i = 0; i < 24; ++i) idleSocket();
    std::this_thread::sleep_for(300ms);
    Scrape s = scrape(port());
    EXPECT_TRUE(s.answered);
    EXPECT_LT(s.took, 6000ms);
}
