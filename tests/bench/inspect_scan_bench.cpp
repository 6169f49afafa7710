// The inspector against a big keyspace: a private redis-server with N lock keys (default
// 1,000,000, or LOCKSCOPE_BENCH_LOCKS) with fence counters, among 3N keys, and in one run
//   (a) the floor: a names-only SCAN MATCH lock:* COUNT 1000 loop over raw hiredis,
//   (b) LockScope's full annotation (Scanner, unpaced), with a PING probe client beside it,
//   (c) the redis-py script a user would write (inspect_redis_py.py),
//   (d) the annotation again over plaintext and then over TLS (the same server's TLS port),
// then one line with the times, the probe's p99, the slow-log entries per phase
// (slowlog-log-slower-than 2000 us; the bench's own helper connections, named bench-helper,
// are not counted, and stderr names the slow commands), the peak RSS, and the memory per
// tracked lock beyond its key and token; and a second line with the TLS annotation against
// the plaintext one of (d).
#include <hiredis/hiredis.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_keyspace.h"
#include "bench_script.h"
#include "bench_tls.h"
#include "lockscope/connection.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/sandbox/local_redis_server.h"

using namespace lockscope;
using namespace lockscope::bench;

namespace {

long statusKb(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(field, 0) == 0) return std::atol(line.c_str() + std::strlen(field));
    return 0;
}

// CPU seconds the server process has used (user + system): the server's share of each phase,
// which a busy machine distorts less than wall time.
double serverCpu(pid_t pid) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
    std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    auto close = stat.rfind(')');
    std::istringstream fields(stat.substr(close + 2));
    std::string skip;
    for (int i = 3; i < 14; ++i) fields >> skip;
    double user = 0, system = 0;
    fields >> user >> system;
    return (user + system) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double processCpu() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

long long integerCommand(int port, const char* command) {
    redisContext* c = rawConnect(port);
    auto* r = static_cast<redisReply*>(redisCommand(c, command));
    long long v = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
    if (r) freeReplyObject(r);
    redisFree(c);
    return v;
}

// The bench's own helpers name their connections so the slow log of a phase counts only
// commands LockScope (or the script under test) sent.
constexpr const char* kBenchClient = "bench-helper";

void nameAsHelper(redisContext* c) {
    freeReplyObject(redisCommand(c, "CLIENT SETNAME %s", kBenchClient));
}

// The slow-log entries of a phase that the bench's helpers did not send (then reset), with
// a per-command breakdown on stderr when there are any: count, slowest, and one example.
long long slowlogTake(int port, const char* phase) {
    redisContext* c = rawConnect(port);
    nameAsHelper(c);
    auto* r = static_cast<redisReply*>(redisCommand(c, "SLOWLOG GET 1024"));
    struct Slow {
        long long count = 0, maxUs = 0;
        std::string example;
    };
    std::map<std::string, Slow> byCommand;
    long long n = 0;
    for (std::size_t i = 0; r && r->type == REDIS_REPLY_ARRAY && i < r->elements; ++i) {
        redisReply* e = r->element[i];
        if (e->elements < 4 || e->element[3]->elements == 0) continue;
        if (e->elements >= 6 && e->element[5]->type == REDIS_REPLY_STRING &&
            std::strcmp(e->element[5]->str, kBenchClient) == 0)
            continue;
        ++n;
        redisReply* args = e->element[3];
        std::string name(args->element[0]->str, args->element[0]->len);
        for (char& ch : name) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
        Slow& slow = byCommand[name];
        ++slow.count;
        if (e->element[2]->integer > slow.maxUs) {
            slow.maxUs = e->element[2]->integer;
            slow.example.clear();
            for (std::size_t k = 1; k < args->elements && k < 4; ++k)
                slow.example += " " + std::string(args->element[k]->str,
                                                  std::min<std::size_t>(args->element[k]->len, 40));
        }
    }
    for (const auto& [name, slow] : byCommand)
        std::fprintf(stderr, "slowlog %s: %s x%lld, slowest %lld us:%s\n", phase, name.c_str(),
                     slow.count, slow.maxUs, slow.example.c_str());
    if (r) freeReplyObject(r);
    freeReplyObject(redisCommand(c, "SLOWLOG RESET"));
    redisFree(c);
    return n;
}

// Seconds of one unpaced annotation through this endpoint; -1 when it did not see every lock.
double timedAnnotation(const Endpoint& endpoint, long locks) {
    Connection connection = Connection::open(endpoint, {.readOnly = true});
    inspect::Scanner scanner(connection);
    long seen = 0;
    auto start = Clock::now();
    scanner.run(
        [&](inspect::ScanBatch& batch) { seen += static_cast<long>(batch.records.size()); });
    const double elapsed = seconds(Clock::now() - start);
    return seen == locks ? elapsed : -1;
}

}  // namespace

int main(int argc, char** argv) {
    long locks = 1'000'000;
    if (const char* env = std::getenv("LOCKSCOPE_BENCH_LOCKS")) locks = std::atol(env);
    if (argc > 1) locks = std::atol(argv[1]);
    if (locks < 1000) locks = 1000;
    std::string script = lockscope::bench::benchScript("inspect_redis_py.py").string();

    DualPortServer dual(
        {"slowlog-log-slower-than 2000", "slowlog-max-len 1024", "enable-debug-command local"});
    LocalRedisServer& server = dual.server();
    auto loadStart = Clock::now();
    loadLockKeyspace(server.port(), locks);
    std::fprintf(stderr, "loaded %ld locks among %lld keys in %.1f s\n", locks,
                 integerCommand(server.port(), "DBSIZE"), seconds(Clock::now() - loadStart));
    waitForRehash(server.port());
    integerCommand(server.port(), "SLOWLOG RESET");

    // (a)
    double cpu0 = serverCpu(server.pid());
    auto [floorKeys, floorTime] = floorScan(server.port());
    double floorCpu = serverCpu(server.pid()) - cpu0;
    long long floorSlow = slowlogTake(server.port(), "floor");

    // (b) with the probe beside it.
    std::atomic<bool> probing{true};
    std::vector<double> probeMs;
    std::thread probe([&] {
        redisContext* c = rawConnect(server.port());
        nameAsHelper(c);
        while (probing) {
            auto t0 = Clock::now();
            freeReplyObject(redisCommand(c, "PING"));
            probeMs.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        redisFree(c);
    });
    redisContext* statsConnection = rawConnect(server.port());
    nameAsHelper(statsConnection);
    long rssBefore = statusKb("VmRSS:");
    std::deque<inspect::LockRecord> records;  // no doubling slack: memory per record is honest
    double keyTokenBytes = 0;
    Connection connection = Connection::open(server.endpoint(), {.readOnly = true});
    // LOCKSCOPE_BENCH_OBSERVER=1: annotate with a command observer set, as the GUI's command
    // log does, to see what reporting every streamed command costs.
    long long observed = 0;
    if (std::getenv("LOCKSCOPE_BENCH_OBSERVER"))
        connection.setObserver([&](const CommandEvent& e) { observed += !e.command.empty(); });
    inspect::Scanner scanner(connection);
    freeReplyObject(redisCommand(statsConnection, "CONFIG RESETSTAT"));
    cpu0 = serverCpu(server.pid());
    double clientCpu0 = processCpu();
    auto start = Clock::now();
    inspect::ScanSummary summary = scanner.run([&](inspect::ScanBatch& batch) {
        for (auto& r : batch.records) {
            keyTokenBytes += static_cast<double>(r.key.size() + r.token.size());
            records.push_back(std::move(r));
        }
    });
    double annotateTime = seconds(Clock::now() - start);
    double annotateCpu = serverCpu(server.pid()) - cpu0;
    double annotateClientCpu = processCpu() - clientCpu0;
    long long annotateSlow = slowlogTake(server.port(), "annotate");
    if (auto* stats =
            static_cast<redisReply*>(redisCommand(statsConnection, "INFO commandstats"))) {
        std::istringstream lines(std::string(stats->str, stats->len));
        for (std::string line; std::getline(lines, line);)
            if (line.rfind("cmdstat_", 0) == 0) std::fprintf(stderr, "annotate %s\n", line.c_str());
        freeReplyObject(stats);
    }
    probing = false;
    probe.join();
    long rssAfter = statusKb("VmRSS:");
    long annotated = static_cast<long>(records.size());
    long withFence = std::count_if(records.begin(), records.end(),
                                   [](const auto& r) { return r.fence.has_value(); });
    double perLock =
        static_cast<double>(rssAfter - rssBefore) * 1024.0 / static_cast<double>(annotated);
    double beyond = perLock - keyTokenBytes / static_cast<double>(annotated);

    // (c)
    double pyTime = -1;
    long pyCount = -1;
    std::string cmd = "/usr/bin/python3 " + script + " " + std::to_string(server.port());
    const char* skipPy = std::getenv("LOCKSCOPE_BENCH_SKIP_PY");  // for profiling the rest
    if (std::FILE* p = skipPy ? nullptr : popen(cmd.c_str(), "r")) {
        if (std::fscanf(p, "%ld %lf", &pyCount, &pyTime) != 2) pyTime = -1;
        pclose(p);
    }

    long long pySlow = slowlogTake(server.port(), "redis-py");
    // (d) plaintext then TLS, back to back and without the probe, so both meet the same load.
    const double plainAgain = timedAnnotation(dual.plain(), locks);
    const double overTls = timedAnnotation(dual.tls(), locks);
    std::sort(probeMs.begin(), probeMs.end());
    double p99 =
        probeMs.empty() ? 0 : probeMs[std::min(probeMs.size() - 1, probeMs.size() * 99 / 100)];
    long peakMb = statusKb("VmHWM:") / 1024;

    std::fprintf(stderr,
                 "server CPU: floor %.2f s, annotate %.2f s (%.2fx); client CPU annotate %.2f s; "
                 "load average %s",
                 floorCpu, annotateCpu, annotateCpu / floorCpu, annotateClientCpu,
                 [] {
                     std::ifstream in("/proc/loadavg");
                     std::string l;
                     std::getline(in, l);
                     return l + "\n";
                 }()
                     .c_str());
    if (observed) std::fprintf(stderr, "observer saw %lld commands\n", observed);
    std::fprintf(stderr,
                 "floor keys %ld, annotated %ld (%ld with fence), vanished %llu, redis-py %ld, "
                 "rounds %llu\n",
                 floorKeys, annotated, withFence,
                 static_cast<unsigned long long>(summary.progress.vanished), pyCount,
                 static_cast<unsigned long long>(summary.progress.rounds));
    std::string count = lockCountLabel(locks);
    std::printf(
        "annotate %s locks %.1f s | floor scan %.1f s (%.2fx) | redis-py %.1f s (%.1fx slower) | "
        "probe p99 %.1f ms | "
        "slowlog %lld (floor %lld, redis-py %lld) | peak RSS %ld MB | %.0f B per tracked lock "
        "beyond key and token\n",
        count.c_str(), annotateTime, floorTime, annotateTime / floorTime, pyTime,
        pyTime / annotateTime, p99, annotateSlow, floorSlow, pySlow, peakMb, beyond);
    std::printf("tls: annotate %s locks %.1f s | %.2fx plaintext (%.1f s; goal <= 1.3x)\n",
                count.c_str(), overTls, overTls / plainAgain, plainAgain);
    bool ok = plainAgain > 0 && overTls > 0 && annotated == locks && floorKeys == locks &&
              pyCount == locks;
    return ok ? 0 : 1;
}
