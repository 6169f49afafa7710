// What the liveness reads cost the server (issue 31): a server with 1M locks (lock:{job<i>}
// with fences, bench_keyspace.h) and 1,000 connected idle clients (50 of them named as
// LockScope holders, named by the holder records of the first 1,000 locks) is watched by the watch
// engine (ServerWatch, default 5% budget) for a window, once without liveness (the baseline) and
// once with it (ServerWatchOptions::liveness, default options), each measured after the watch's
// first scan. Printed: the server's CPU share (INFO cpu over the wall time) in each window, the
// difference (what the liveness reads add) against the 5% budget, and the ratio.
// LOCKSCOPE_LIVENESS_LOAD_LOCKS and LOCKSCOPE_LIVENESS_LOAD_SECONDS shrink it for a quick look.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench_keyspace.h"
#include "lockscope/connection.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "lockscope/sandbox/local_redis_server.h"

namespace {

using namespace lockscope;
using Clock = std::chrono::steady_clock;

constexpr int kIdleClients = 1'000;
constexpr int kNamedClients = 50;

long envOr(const char* name, long fallback) {
    // NOLINTNEXTLINE(concurrency-mt-unsafe): read before any other thread exists
    const char* value = std::getenv(name);
    return value ? std::atol(value) : fallback;
}

double serverCpu(Connection& c) {
    const std::string info(c.command({"INFO", "cpu"}).text());
    double total = 0;
    for (std::string_view field : {"used_cpu_user:", "used_cpu_sys:"}) {
        const auto at = info.find(field);
        if (at != std::string::npos) total += std::atof(info.c_str() + at + field.size());
    }
    return total;
}

// How many times the server ran a command so far (INFO commandstats), e.g. "hmget".
long long callsOf(Connection& c, const std::string& command) {
    const std::string info(c.command({"INFO", "commandstats"}).text());
    const std::string field = "cmdstat_" + command + ":calls=";
    const auto at = info.find(field);
    return at == std::string::npos ? 0 : std::atoll(info.c_str() + at + field.size());
}

// Holder records (as LockOptions::holder writes them) for the first `count` locks, naming the
// named idle clients, so the liveness reads include CLIENT LIST and find their holders alive.
void writeHolderRecords(Connection& c, long count) {
    std::vector<std::vector<std::string>> gets;
    for (long i = 0; i < count; ++i) gets.push_back({"GET", "lock:{job" + std::to_string(i) + "}"});
    auto tokens = c.pipeline(gets);
    std::vector<std::vector<std::string>> sets;
    for (long i = 0; i < count; ++i) {
        const std::string pid = std::to_string(1000 + i % kNamedClients);
        sets.push_back({"HSET", "holder:{job" + std::to_string(i) + "}", "token",
                        std::string(tokens[i].text()), "host", "bench", "pid", pid, "connection",
                        "lockscope:bench:" + pid});
    }
    c.pipeline(sets);
}

struct Window {
    double share = 0;           // server CPU over wall time
    long long holderReads = 0;  // HMGETs (the own-lock holder records)
    long long clientLists = 0;  // CLIENT LIST reads
};

// Idle plain sockets; the first kNamedClients name themselves as LockScope holders would.
std::vector<int> openIdleClients(int port) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<std::uint16_t>(port));
    inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
    std::vector<int> fds;
    for (int i = 0; i < kIdleClients; ++i) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            std::fprintf(stderr, "could not open idle client %d\n", i);
            std::exit(1);
        }
        if (i < kNamedClients) {
            std::string name = "lockscope:bench:" + std::to_string(1000 + i);
            std::string command = "*3\r\n$6\r\nCLIENT\r\n$7\r\nSETNAME\r\n$" +
                                  std::to_string(name.size()) + "\r\n" + name + "\r\n";
            if (write(fd, command.data(), command.size()) < 0) std::exit(1);
            char reply[16];
            if (read(fd, reply, sizeof reply) <= 0) std::exit(1);
        }
        fds.push_back(fd);
    }
    return fds;
}

void stepUntil(inspect::ServerWatch& watch, Clock::time_point end) {
    watch.step();
    auto next = std::min(watch.nextStepAt(), end);
    if (next > Clock::now()) std::this_thread::sleep_until(next);
}

// The server's CPU share (of one core) while a watch runs for `window` in its steady state:
// after its first scan (which runs as fast as the budget lets any watch start), so the
// window holds the re-reads, the sweep and, when on, the liveness reads.
Window watchShare(const LocalRedisServer& server, bool liveness, std::chrono::seconds window) {
    inspect::ServerWatchOptions options;
    options.endpoint = server.endpoint();
    if (liveness) options.liveness = inspect::LivenessOptions{};
    inspect::ServerWatch watch(std::move(options));
    Connection probe = Connection::open(server.endpoint());
    watch.open();
    const auto giveUp = Clock::now() + std::chrono::minutes(30);
    while (Clock::now() < giveUp) {
        auto nodes = watch.nodes();
        if (!nodes.empty() && nodes.front().scanned) break;
        stepUntil(watch, giveUp);
    }
    const double before = serverCpu(probe);
    const long long hmgets = callsOf(probe, "hmget"), lists = callsOf(probe, "client|list");
    const auto start = Clock::now();
    while (Clock::now() - start < window) stepUntil(watch, start + window);
    const double wall = std::chrono::duration<double>(Clock::now() - start).count();
    return {(serverCpu(probe) - before) / wall, callsOf(probe, "hmget") - hmgets,
            callsOf(probe, "client|list") - lists};
}

}  // namespace

int main() {
    const long locks = envOr("LOCKSCOPE_LIVENESS_LOAD_LOCKS", 1'000'000);
    const std::chrono::seconds window(envOr("LOCKSCOPE_LIVENESS_LOAD_SECONDS", 60));
    LocalRedisServer server;
    bench::loadLockKeyspace(server.port(), locks);
    bench::waitForRehash(server.port());
    auto idle = openIdleClients(server.port());
    Connection probe = Connection::open(server.endpoint());
    writeHolderRecords(probe, std::min(locks, 1'000L));
    const double idleShare = [&] {
        const double before = serverCpu(probe);
        std::this_thread::sleep_for(std::chrono::seconds(5));
        return (serverCpu(probe) - before) / 5.0;
    }();
    const Window off = watchShare(server, false, window);
    const Window on = watchShare(server, true, window);
    const double baseline = off.share, withLiveness = on.share;
    const double added = withLiveness - baseline;
    std::printf(
        "liveness load, %s locks, %d clients, %lld s windows: server CPU idle %.2f%%, "
        "watched %.2f%% (baseline), watched with liveness %.2f%% (%.2fx); liveness reads add "
        "%.2f%% of a core against the 5%% budget (%lld holder-record reads, %lld CLIENT LIST "
        "reads in the window)\n",
        bench::lockCountLabel(locks).c_str(), kIdleClients + 2,
        static_cast<long long>(window.count()), idleShare * 100, baseline * 100, withLiveness * 100,
        baseline > 0 ? withLiveness / baseline : 0.0, added * 100, on.holderReads, on.clientLists);
    for (int fd : idle) close(fd);
}
