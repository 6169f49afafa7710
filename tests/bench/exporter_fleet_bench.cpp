// Issue 36 (and 37 item 7): the multi-target exporter (lockscope-cli exporter, its own
// process) watching a fleet — by default 50
// redis-servers of 20,000 locks each (1M locks, among 3M keys), each scraped through
// /scrape?target= every 15 s the way Prometheus would, spread over the interval. Printed:
// each new target's first complete census (against a names-only SCAN of one server, the
// least a census can cost), each server's share of a core in steady state (against the same
// servers idle, measured first), the exporter's CPU share and resident memory (against the
// process before the exporter started), and the scrape latencies (against /metrics of an
// exporter with no target). Scaled by LOCKSCOPE_BENCH_FLEET_TARGETS, _LOCKS, _INTERVAL_S and
// _STEADY_S; the goals are the (≤ 5% per server, ≤ 15% of a core and ≤ 400 MB for
// the exporter, p99 ≤ 100 ms, first census ≤ 30 s; issue 37: ≤ 300 MB for 1M locks).

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_keyspace.h"
#include "http_get.h"
#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"

extern char** environ;

using namespace lockscope;
using namespace lockscope::bench;
using namespace std::chrono_literals;

namespace {

long envNumber(const char* name, long fallback) {
    const char* text = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): before any thread
    return text && std::atol(text) > 0 ? std::atol(text) : fallback;
}

// `lockscope-cli exporter` as Prometheus would scrape it: its own process, so its CPU and
// memory are its own (allocator settings included), stopped with SIGTERM at the end.
class ExporterProcess {
  public:
    explicit ExporterProcess(std::vector<std::string> args) {
        int fds[2];
        if (pipe(fds) != 0) std::exit(1);
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
        posix_spawn_file_actions_addclose(&actions, fds[0]);
        args.insert(args.begin(), LOCKSCOPE_CLI);
        std::vector<char*> argv;
        for (auto& a : args) argv.push_back(a.data());
        argv.push_back(nullptr);
        if (posix_spawn(&pid_, LOCKSCOPE_CLI, &actions, nullptr, argv.data(), environ) != 0) {
            std::fprintf(stderr, "cannot start %s\n", LOCKSCOPE_CLI);
            std::exit(1);
        }
        posix_spawn_file_actions_destroy(&actions);
        close(fds[1]);
        // "serving http://127.0.0.1:0/metrics (port 43121) ..."
        std::string line;
        char c = 0;
        while (read(fds[0], &c, 1) == 1 && c != '\n') line += c;
        close(fds[0]);
        auto at = line.find("(port ");
        port_ = at == std::string::npos ? 0 : std::atoi(line.c_str() + at + 6);
        if (port_ == 0) {
            std::fprintf(stderr, "the exporter did not start: %s\n", line.c_str());
            std::exit(1);
        }
    }
    ~ExporterProcess() {
        kill(pid_, SIGTERM);
        int status = 0;
        waitpid(pid_, &status, 0);
    }
    ExporterProcess(const ExporterProcess&) = delete;
    ExporterProcess& operator=(const ExporterProcess&) = delete;
    int port() const { return port_; }
    std::string proc(const std::string& file) const {
        return "/proc/" + std::to_string(pid_) + "/" + file;
    }

  private:
    pid_t pid_ = -1;
    int port_ = 0;
};

// utime + stime of a process (/proc/PID/stat fields 14 and 15), in seconds.
double cpuSeconds(const std::string& statPath) {
    std::ifstream stat(statPath);
    std::string text((std::istreambuf_iterator<char>(stat)), {});
    std::istringstream fields(text.substr(text.rfind(')') + 2));
    std::string field;
    double ticks = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i)
        if (i >= 14) ticks += std::stod(field);
    return ticks / double(sysconf(_SC_CLK_TCK));
}

// VmRSS or VmHWM (the peak) of a process, in MB.
double memoryMb(const std::string& statusPath, const std::string& field) {
    std::ifstream status(statusPath);
    std::string word;
    while (status >> word)
        if (word == field + ":") {
            double kb = 0;
            status >> kb;
            return kb / 1024;
        }
    return 0;
}

double serverCpuSeconds(Connection& c) {
    std::string info(c.command({"INFO", "cpu"}).text());
    auto field = [&](const std::string& name) {
        auto at = info.find(name + ":");
        return at == std::string::npos ? 0.0 : std::stod(info.substr(at + name.size() + 1));
    };
    return field("used_cpu_sys") + field("used_cpu_user");
}

struct Fleet {
    std::vector<std::unique_ptr<LocalRedisServer>> servers;
    std::vector<Connection> observers;
    std::vector<double> cpu() {
        std::vector<double> out;
        for (auto& c : observers) out.push_back(serverCpuSeconds(c));
        return out;
    }
};

// Each server's share of a core between two INFO cpu readings: {mean, max}.
std::pair<double, double> serverShares(const std::vector<double>& before,
                                       const std::vector<double>& after, double seconds) {
    double sum = 0, most = 0;
    for (std::size_t i = 0; i < before.size(); ++i) {
        const double share = (after[i] - before[i]) / seconds;
        sum += share;
        most = std::max(most, share);
    }
    return {sum / double(before.size()), most};
}

double percentile(std::vector<double> values, double p) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    return values[std::min(values.size() - 1, std::size_t(double(values.size()) * p))];
}

std::string targetOf(const LocalRedisServer& s) {
    return "redis://127.0.0.1:" + std::to_string(s.port());
}

bool isUp(const std::string& body, const std::string& target) {
    return body.find("lockscope_up{instance=\"" + target + "\"} 1") != std::string::npos;
}

}  // namespace

int main() {
    const long targets = envNumber("LOCKSCOPE_BENCH_FLEET_TARGETS", 50);
    const long locks = envNumber("LOCKSCOPE_BENCH_FLEET_LOCKS", 20000);
    const auto interval = std::chrono::seconds(envNumber("LOCKSCOPE_BENCH_FLEET_INTERVAL_S", 15));
    const auto steady = std::chrono::seconds(envNumber("LOCKSCOPE_BENCH_FLEET_STEADY_S", 60));
    std::printf("exporter fleet: %ld targets x %s locks (%s), scraped every %lld s\n", targets,
                lockCountLabel(locks).c_str(), lockCountLabel(targets * locks).c_str(),
                static_cast<long long>(interval.count()));

    Fleet fleet;
    for (long i = 0; i < targets; ++i) {
        fleet.servers.push_back(std::make_unique<LocalRedisServer>());
        loadLockKeyspace(fleet.servers.back()->port(), locks);
        fleet.observers.push_back(Connection::open(fleet.servers.back()->endpoint()));
    }
    for (auto& s : fleet.servers) waitForRehash(s->port());
    // Baselines: the servers idle, and the least a census of one server costs.
    const auto idle0 = fleet.cpu();
    std::this_thread::sleep_for(5s);
    const auto idleShare = serverShares(idle0, fleet.cpu(), 5.0);
    const double floorSeconds = floorScan(fleet.servers.front()->port()).second;

    ExporterProcess lockExporter({"exporter", "--listen", "127.0.0.1:0", "--interval",
                                  std::to_string(interval.count()) + "s", "--allow-target",
                                  "redis://127.0.0.1:*", "--max-targets", "1000"});
    const int port = lockExporter.port();
    const std::string status = lockExporter.proc("status"), stat = lockExporter.proc("stat");
    const double rssBefore = memoryMb(status, "VmRSS");
    std::vector<double> baseline;
    for (int i = 0; i < 50; ++i) {
        const auto at = Clock::now();
        testing::httpGet(port, "/metrics");
        baseline.push_back(seconds(Clock::now() - at) * 1000);
    }

    // Every target named at once, as a Prometheus job starts; each polled until its census.
    const auto start = Clock::now();
    std::vector<double> firstCensus(std::size_t(targets), -1);
    for (const auto& s : fleet.servers) testing::httpGet(port, "/scrape?target=" + targetOf(*s));
    for (long done = 0; done < targets && Clock::now() - start < 600s;) {
        done = 0;
        for (std::size_t i = 0; i < fleet.servers.size(); ++i) {
            if (firstCensus[i] < 0 &&
                isUp(testing::httpGet(port, "/scrape?target=" + targetOf(*fleet.servers[i])).body,
                     targetOf(*fleet.servers[i])))
                firstCensus[i] = seconds(Clock::now() - start);
            done += firstCensus[i] >= 0 ? 1 : 0;
        }
        std::this_thread::sleep_for(200ms);
    }
    const double peakAfterFirst = memoryMb(status, "VmHWM");

    // Steady state: each target scraped once an interval, the scrapes spread over it.
    std::atomic<bool> stop{false};
    std::mutex scrapesMutex;
    std::vector<double> scrapeMs;
    std::thread prometheus([&] {
        const auto gap = std::chrono::milliseconds(interval) / targets;
        for (std::size_t i = 0; !stop; i = (i + 1) % fleet.servers.size()) {
            const auto at = Clock::now();
            testing::httpGet(port, "/scrape?target=" + targetOf(*fleet.servers[i]));
            {
                std::lock_guard lock(scrapesMutex);
                scrapeMs.push_back(seconds(Clock::now() - at) * 1000);
            }
            std::this_thread::sleep_for(gap);
        }
    });
    std::this_thread::sleep_for(interval);  // settle: one round of scrapes and censuses
    {
        std::lock_guard lock(scrapesMutex);
        scrapeMs.clear();
    }
    const auto cpu0 = fleet.cpu();
    const double own0 = cpuSeconds(stat);
    const auto t0 = Clock::now();
    std::this_thread::sleep_for(steady);
    const double wall = seconds(Clock::now() - t0);
    const auto shares = serverShares(cpu0, fleet.cpu(), wall);
    const double ownShare = (cpuSeconds(stat) - own0) / wall;
    const double rss = memoryMb(status, "VmRSS"), peak = memoryMb(status, "VmHWM");
    stop = true;
    prometheus.join();

    std::sort(firstCensus.begin(), firstCensus.end());
    std::printf(
        "first complete census: median %.1f s, slowest %.1f s (%.0fx a names-only SCAN of "
        "one server, %.2f s) [goal <= 30 s]\n",
        firstCensus[firstCensus.size() / 2], firstCensus.back(), firstCensus.back() / floorSeconds,
        floorSeconds);
    std::printf(
        "each server: mean %.2f%%, max %.2f%% of a core (idle: mean %.2f%%, max %.2f%%) "
        "[goal <= 5%%]\n",
        shares.first * 100, shares.second * 100, idleShare.first * 100, idleShare.second * 100);
    std::printf(
        "exporter: %.1f%% of a core; RSS %.0f MB steady (%.0f MB before it started: "
        "+%.0f MB, %.0f bytes per lock), peak %.0f MB (%.0f MB by the first census) "
        "[goal <= 15%%, <= 400 MB]\n",
        ownShare * 100, rss, rssBefore, rss - rssBefore,
        (rss - rssBefore) * 1048576.0 / double(targets * locks), peak, peakAfterFirst);
    std::printf(
        "scrape over %zu scrapes: p50 %.1f ms, p99 %.1f ms, max %.1f ms (/metrics with no "
        "target: p99 %.1f ms) [goal p99 <= 100 ms]\n",
        scrapeMs.size(), percentile(scrapeMs, 0.5), percentile(scrapeMs, 0.99),
        percentile(scrapeMs, 1.0), percentile(baseline, 0.99));
    return 0;
}
