// The inspector against a big keyspace: a private redis-server with N lock keys (default
// 1,000,000, or LOCKSCOPE_BENCH_LOCKS) with fence counters, among 3N keys, and in one run
//   (a) the floor: a names-only SCAN MATCH lock:* COUNT 1000 loop over raw hiredis,
//   (b) LockScope's full annotation (Scanner, unpaced), with a PING probe client beside it,
//   (c) the redis-py script a user would write (inspect_redis_py.py),
// then one line with the times, the probe's p99, the slow-log entries per phase
// (slowlog-log-slower-than 2000 us; the bench's own helper connections, named bench-helper,
// are not counted, and stderr names the slow commands), the peak RSS, and the memory per
// tracked lock beyond its key and token.
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

#include "lockscope/connection.h"
#include "lockscope/inspect/scanner.h"
#include "lockscope/sandbox/local_redis_server.h"

using namespace lockscope;
using Clock = std::chrono::steady_clock;

namespace {

double seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

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

redisContext* rawConnect(int port) {
    redisContext* c = redisConnect("127.0.0.1", port);
    if (!c || c->err) {
        std::fprintf(stderr, "cannot connect to the bench server\n");
        std::exit(1);
    }
    return c;
}

void load(int port, long locks) {
    redisContext* c = rawConnect(port);
    std::mt19937_64 rng(7);  // bench data only: tokens need not be unpredictable here
    const long chunk = 5000;
    char token[33];
    for (long from = 0; from < locks; from += chunk) {
        long to = std::min(locks, from + chunk);
        for (long i = from; i < to; ++i) {
            std::snprintf(token, sizeof token, "%016llx%016llx",
                          static_cast<unsigned long long>(rng()),
                          static_cast<unsigned long long>(rng()));
            std::string id = std::to_string(i);
            std::string lock = "lock:{job" + id + "}", fence = "fence:{job" + id + "}",
                        other = "other:" + id;
            redisAppendCommand(c, "SET %b %b PX 3600000", lock.data(), lock.size(), token,
                               size_t{32});
            redisAppendCommand(c, "SET %b %b", fence.data(), fence.size(), id.data(), id.size());
            redisAppendCommand(c, "SET %b %s", other.data(), other.size(), "payload");
        }
        for (long i = from; i < to; ++i)
            for (int k = 0; k < 3; ++k) {
                void* reply = nullptr;
                if (redisGetReply(c, &reply) != REDIS_OK) {
                    std::fprintf(stderr, "load failed: %s\n", c->errstr);
                    std::exit(1);
                }
                freeReplyObject(reply);
            }
    }
    redisFree(c);
}

// (a) the floor: names only.
std::pair<long, double> floorScan(int port) {
    redisContext* c = rawConnect(port);
    auto start = Clock::now();
    long keys = 0;
    std::string cursor = "0";
    do {
        auto* r = static_cast<redisReply*>(
            redisCommand(c, "SCAN %s MATCH lock:* COUNT 1000", cursor.c_str()));
        cursor.assign(r->element[0]->str, r->element[0]->len);
        keys += static_cast<long>(r->element[1]->elements);
        freeReplyObject(r);
    } while (cursor != "0");
    double t = seconds(Clock::now() - start);
    redisFree(c);
    return {keys, t};
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

// Loading grows the key tables, and Redis moves the entries to the bigger table bit by bit
// (incremental rehashing), which slows SCAN and every lookup until it is done. Measure on a
// settled server: let the cron rehash faster for a moment and wait until it has finished.
void waitForRehash(int port) {
    redisContext* c = rawConnect(port);
    freeReplyObject(redisCommand(c, "CONFIG SET hz 100"));
    auto start = Clock::now();
    for (;;) {
        auto* r = static_cast<redisReply*>(redisCommand(c, "DEBUG HTSTATS 0"));
        bool rehashing =
            r && r->type == REDIS_REPLY_STRING && std::strstr(r->str, "rehashing target");
        bool unknown = !r || r->type != REDIS_REPLY_STRING;
        if (r) freeReplyObject(r);
        if (!rehashing || unknown || Clock::now() - start > std::chrono::seconds(120)) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    freeReplyObject(redisCommand(c, "CONFIG SET hz 10"));
    std::fprintf(stderr, "waited %.1f s for the server to finish rehashing\n",
                 seconds(Clock::now() - start));
    redisFree(c);
}

}  // namespace

int main(int argc, char** argv) {
    long locks = 1'000'000;
    if (const char* env = std::getenv("LOCKSCOPE_BENCH_LOCKS")) locks = std::atol(env);
    if (argc > 1) locks = std::atol(argv[1]);
    if (locks < 1000) locks = 1000;
    std::string script =
        (std::filesystem::path(__FILE__).parent_path() / "inspect_redis_py.py").string();

    LocalRedisServer server({.configLines = {"slowlog-log-slower-than 2000", "slowlog-max-len 1024",
                                             "enable-debug-command local"}});
    auto loadStart = Clock::now();
    load(server.port(), locks);
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
    std::string count = locks % 1'000'000 == 0 ? std::to_string(locks / 1'000'000) + "M"
                        : locks % 1000 == 0    ? std::to_string(locks / 1000) + "k"
                                               : std::to_string(locks);
    std::printf(
        "annotate %s locks %.1f s | floor scan %.1f s (%.2fx) | redis-py %.1f s (%.1fx slower) | "
        "probe p99 %.1f ms | "
        "slowlog %lld (floor %lld, redis-py %lld) | peak RSS %ld MB | %.0f B per tracked lock "
        "beyond key and token\n",
        count.c_str(), annotateTime, floorTime, annotateTime / floorTime, pyTime,
        pyTime / annotateTime, p99, annotateSlow, floorSlow, pySlow, peakMb, beyond);
    bool ok = annotated == locks && floorKeys == locks && pyCount == locks;
    return ok ? 0 : 1;
}
