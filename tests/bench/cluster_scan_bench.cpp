// The cluster annotation benchmark of issue 11: lock keys with fence counters among three
// times as many keys on a 3-primary cluster (tests/support/cluster_fixture), scanned by
// scanCluster (every primary in parallel), against the floor: a names-only
// SCAN MATCH lock:* COUNT 1000 loop over raw hiredis, node after node. Each node's server CPU
// for the annotation comes from INFO commandstats; the projection for a cluster whose nodes
// have their own machines is the largest node's server time (or the client's CPU time when
// that is larger). Then the script a redis-py user would write with RedisCluster
// (cluster_redis_py.py, /usr/bin/python3) on the same cluster. The size is a parameter:
// LOCKSCOPE_CLUSTER_BENCH_LOCKS (default 1000000); LOCKSCOPE_BENCH_SKIP_PY=1 skips redis-py.
#include <hiredis/hiredis.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cluster_fixture.h"
#include "lockscope/inspect/cluster/cluster_scan.h"
#include "lockscope/inspect/hash_slot.h"

using namespace lockscope;
using Clock = std::chrono::steady_clock;

namespace {

// The bench's settings; read while no other thread touches the environment.
const char* setting(const char* name) {
    return std::getenv(name);  // NOLINT(concurrency-mt-unsafe): nothing calls setenv
}

double seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

double processCpu() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

// Server CPU and calls per command, summed over the nodes read (INFO commandstats).
struct CommandCost {
    double seconds = 0;
    long calls = 0;
};
using CommandCosts = std::map<std::string, CommandCost>;

// Sum of usec over INFO commandstats, in seconds; each command's share is added to *costs.
double commandSeconds(int port, CommandCosts* costs) {
    redisContext* c = redisConnect("127.0.0.1", port);
    auto* r = static_cast<redisReply*>(redisCommand(c, "INFO commandstats"));
    double usec = 0;
    std::istringstream lines(std::string(r->str, r->len));
    for (std::string line; std::getline(lines, line);) {
        auto at = line.find("usec=");
        if (line.rfind("cmdstat_", 0) == 0 && line.rfind("cmdstat_info", 0) != 0 &&
            at != std::string::npos) {
            const double used = std::atof(line.c_str() + at + 5);
            usec += used;
            CommandCost& cost = (*costs)[line.substr(8, line.find(':') - 8)];
            cost.seconds += used / 1e6;
            auto n = line.find("calls=");
            if (n != std::string::npos) cost.calls += std::atol(line.c_str() + n + 6);
        }
    }
    freeReplyObject(r);
    redisFree(c);
    return usec / 1e6;
}

// The server process's CPU time so far (INFO cpu: used_cpu_user + used_cpu_sys), in seconds:
// what it really used, I/O and parsing included. INFO commandstats times each command's
// call() by the clock, which also counts the time the server waited for a core, so on a
// machine with fewer cores than busy processes it over-counts.
double processSeconds(int port) {
    redisContext* c = redisConnect("127.0.0.1", port);
    auto* r = static_cast<redisReply*>(redisCommand(c, "INFO cpu"));
    const std::string info(r->str, r->len);
    double total = 0;
    for (const char* field : {"used_cpu_user:", "used_cpu_sys:"}) {
        const auto at = info.find(field);
        if (at != std::string::npos) total += std::atof(info.c_str() + at + std::strlen(field));
    }
    freeReplyObject(r);
    redisFree(c);
    return total;
}

double processSecondsSum(const std::vector<int>& ports) {
    double sum = 0;
    for (int port : ports) sum += processSeconds(port);
    return sum;
}

void resetStats(int port) {
    redisContext* c = redisConnect("127.0.0.1", port);
    freeReplyObject(redisCommand(c, "CONFIG RESETSTAT"));
    redisFree(c);
}

long namesOnlyScan(int port) {
    redisContext* c = redisConnect("127.0.0.1", port);
    std::string cursor = "0";
    long names = 0;
    do {
        auto* r = static_cast<redisReply*>(
            redisCommand(c, "SCAN %s MATCH lock:* COUNT 1000", cursor.c_str()));
        cursor.assign(r->element[0]->str, r->element[0]->len);
        names += static_cast<long>(r->element[1]->elements);
        freeReplyObject(r);
    } while (cursor != "0");
    redisFree(c);
    return names;
}

void fill(testing::RedisCluster& cluster, long locks) {
    std::vector<redisContext*> nodes;
    for (std::size_t i = 0; i < 3; ++i)
        nodes.push_back(redisConnect("127.0.0.1", cluster.node(i).server->port()));
    std::vector<long> pending(3, 0);
    auto flush = [&](std::size_t n) {
        for (; pending[n] > 0; --pending[n]) {
            void* reply = nullptr;
            redisGetReply(nodes[n], &reply);
            freeReplyObject(reply);
        }
    };
    auto put = [&](const std::string& key, const std::string& value) {
        std::size_t n = cluster.primaryFor(key);
        redisAppendCommand(nodes[n], "SET %b %b", key.data(), key.size(), value.data(),
                           value.size());
        if (++pending[n] >= 2000) flush(n);
    };
    for (long i = 0; i < locks; ++i) {
        std::string name = "{job" + std::to_string(i) + "}";
        put("lock:" + name, "0123456789abcdef0123456789abcdef");
        put("fence:" + name, std::to_string(i));
        put("data:" + std::to_string(i), "x");
    }
    for (std::size_t n = 0; n < 3; ++n) flush(n), redisFree(nodes[n]);
}

}  // namespace

int main() {
    long locks = 1'000'000;
    if (const char* n = setting("LOCKSCOPE_CLUSTER_BENCH_LOCKS")) locks = std::atol(n);
    testing::RedisCluster cluster;
    fill(cluster, locks);
    std::vector<int> ports;
    for (std::size_t i = 0; i < 3; ++i) ports.push_back(cluster.node(i).server->port());

    double floorServer = processSecondsSum(ports);
    auto start = Clock::now();
    long names = 0;
    for (int port : ports) names += namesOnlyScan(port);
    double floor = seconds(Clock::now() - start);
    floorServer = processSecondsSum(ports) - floorServer;

    for (int port : ports) resetStats(port);
    inspect::ClusterRouter router(cluster.endpoint(0), {.readOnly = true});
    std::vector<double> process;
    for (int port : ports) process.push_back(processSeconds(port));
    double client0 = processCpu();
    start = Clock::now();
    auto result = inspect::scanCluster(router, {});
    double annotate = seconds(Clock::now() - start);
    double clientCpu = processCpu() - client0;
    for (std::size_t i = 0; i < ports.size(); ++i)
        process[i] = processSeconds(ports[i]) - process[i];
    std::vector<double> serverCpu;
    serverCpu.reserve(ports.size());
    CommandCosts costs;
    for (int port : ports) serverCpu.push_back(commandSeconds(port, &costs));
    long commands = 0;  // load-independent: what the server was asked to do
    std::string byCommand;
    for (const auto& [name, cost] : costs) {
        commands += cost.calls;
        byCommand += " " + name + " " + std::to_string(cost.seconds).substr(0, 4) + " s/" +
                     std::to_string(cost.calls) + " calls";
    }
    double projected =
        std::max(*std::max_element(serverCpu.begin(), serverCpu.end()), clientCpu / 3.0);
    double pyTime = -1;
    long pyCount = -1;
    const char* benchDir = setting("LOCKSCOPE_BENCH_DIR");  // ./scripts/bench sets it
    const std::string script = ((benchDir ? std::filesystem::path(benchDir)
                                          : std::filesystem::path(__FILE__).parent_path()) /
                                "cluster_redis_py.py")
                                   .string();
    const std::string cmd = "/usr/bin/python3 " + script + " " + std::to_string(ports[0]);
    if (std::FILE* p = setting("LOCKSCOPE_BENCH_SKIP_PY") ? nullptr : popen(cmd.c_str(), "r")) {
        if (std::fscanf(p, "%ld %lf", &pyCount, &pyTime) != 2) pyTime = -1;
        pclose(p);
    }
    long withFence = 0;
    for (const auto& part : result.parts)
        withFence += std::count_if(part.begin(), part.end(),
                                   [](const auto& r) { return r.fence.has_value(); });
    std::printf(
        "cluster annotate %ldk locks %.2f s | sequential names-only floor over the 3 primaries "
        "%.2f s (%.2fx) | projected with a machine per node %.2f s (%.2fx) | redis-py "
        "RedisCluster script %.2f s (%.1fx slower, %ld locks) | node server CPU %.2f/%.2f/%.2f s "
        "| client CPU %.2f s | %.2f commands per lock | %ld names, %zu records, %ld with fence "
        "| server CPU by command:%s | node process CPU (INFO cpu) %.2f/%.2f/%.2f s, the floor's "
        "%.2f s in all\n",
        locks / 1000, annotate, floor, annotate / floor, projected, projected / floor, pyTime,
        pyTime / annotate, pyCount, serverCpu[0], serverCpu[1], serverCpu[2], clientCpu,
        static_cast<double>(commands) / static_cast<double>(locks), names, result.lockCount(),
        withFence, byCommand.c_str(), process[0], process[1], process[2], floorServer);
    return result.lockCount() == static_cast<std::size_t>(locks) ? 0 : 1;
}
