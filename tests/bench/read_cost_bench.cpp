// What reading each lock costs the server, by the shape of the reads: the question behind
// issue 11's cluster annotation, whose time on two cores is bound by the servers' CPU. On one
// real redis-server with N locks and their fence counters (default 200,000;
// LOCKSCOPE_READ_COST_LOCKS), every lock is read page by page (333 locks: a SCAN COUNT 1000
// page of a keyspace with three keys per lock) in three shapes, and the server's own CPU
// (INFO cpu, user + sys) for each is printed against the first:
//   - the cluster scan's pipeline: one MGET per slot group (a cluster refuses an MGET across
//     slots; ~4 locks and their fences each, as measured on 1M locks) and one PTTL per lock;
//   - one MGET per page and one PTTL per lock (what a single server allows);
//   - one EVALSHA per page of a read-only Lua script that GETs each lock and fence and asks
//     its PTTL (Redis 7's allow-cross-slot-keys would let a cluster node run it).
// Each shape runs twice, interleaved, and its lower figure is kept (the machine is shared).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "bench_keyspace.h"
#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "lockscope/script.h"

using namespace lockscope;

namespace {

constexpr std::size_t kPageLocks = 333;
constexpr std::size_t kSlotGroupLocks = 4;

// The server's CPU time so far, in seconds (INFO cpu: used_cpu_user + used_cpu_sys).
double serverCpu(Connection& c) {
    const std::string info(c.command({"INFO", "cpu"}).text());
    double total = 0;
    for (std::string_view field : {"used_cpu_user:", "used_cpu_sys:"}) {
        const auto at = info.find(field);
        if (at != std::string::npos) total += std::atof(info.c_str() + at + field.size());
    }
    return total;
}

std::string fenceOf(const std::string& lock) {
    return "fence:" + lock.substr(std::string_view("lock:").size());
}

void readPipelined(Connection& c, const std::vector<std::string>& page, std::size_t groupLocks) {
    std::vector<std::vector<std::string>> commands;
    for (std::size_t g = 0; g < page.size(); g += groupLocks) {
        std::vector<std::string> mget{"MGET"};
        for (std::size_t i = g; i < std::min(page.size(), g + groupLocks); ++i) {
            mget.push_back(page[i]);
            mget.push_back(fenceOf(page[i]));
        }
        commands.push_back(std::move(mget));
    }
    for (const auto& key : page) commands.push_back({"PTTL", key});
    c.pipeline(commands);
}

const Script& pageScript() {
    static const Script script(R"(#!lua flags=no-writes,allow-cross-slot-keys
local out = {}
for i, k in ipairs(KEYS) do
  out[i] = {redis.pcall('GET', k), redis.pcall('GET', 'fence:' .. string.sub(k, 6)),
            redis.call('PTTL', k)}
end
return out)");
    return script;
}

void readWithScript(Connection& c, const std::vector<std::string>& page) {
    std::vector<std::string_view> keys(page.begin(), page.end());
    c.eval(pageScript(), Connection::Argv(keys), {});
}

struct Shape {
    const char* name;
    void (*read)(Connection&, const std::vector<std::string>&);
    double best = std::numeric_limits<double>::max();
};

}  // namespace

int main() {
    long locks = 200'000;
    // NOLINTNEXTLINE(concurrency-mt-unsafe): read before any other thread exists
    if (const char* env = std::getenv("LOCKSCOPE_READ_COST_LOCKS")) locks = std::atol(env);
    LocalRedisServer server;
    bench::loadLockKeyspace(server.port(), locks);
    bench::waitForRehash(server.port());
    std::vector<std::vector<std::string>> pages;
    for (long i = 0; i < locks; ++i) {
        if (std::size_t(i) % kPageLocks == 0) pages.emplace_back();
        pages.back().push_back("lock:{job" + std::to_string(i) + "}");
    }
    Connection c = Connection::open(server.endpoint());
    Shape shapes[] = {
        {"cluster pipeline (MGET per slot group + PTTL)",
         [](Connection& on, const std::vector<std::string>& page) {
             readPipelined(on, page, kSlotGroupLocks);
         }},
        {"one MGET per page + PTTL",
         [](Connection& on, const std::vector<std::string>& page) {
             readPipelined(on, page, page.size());
         }},
        {"Lua page script (EVALSHA)", readWithScript},
    };
    for (int round = 0; round < 2; ++round)
        for (Shape& shape : shapes) {
            const double before = serverCpu(c);
            for (const auto& page : pages) shape.read(c, page);
            shape.best = std::min(shape.best, serverCpu(c) - before);
        }
    std::printf("read cost %s locks, server CPU per shape:", bench::lockCountLabel(locks).c_str());
    for (const Shape& shape : shapes)
        std::printf(" | %s %.3f s (%.2fx)", shape.name, shape.best, shape.best / shapes[0].best);
    std::printf("\n");
}
