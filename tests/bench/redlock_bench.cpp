// Redlock acquire + release cycle on five local redis-servers, in one run:
//   floor            plain hiredis SET NX PX then DEL, each sent to all five before any reply is
//   read redlock          LockScope's Redlock (tryAcquire + release) single-instance  LockScope's
//   RedisLock on one of the servers node-redlock     npm redlock 5 + ioredis on the same five
//   (tests/bench/redlock_node.mjs)
// Each C++ variant runs in alternating blocks and reports its median block, so a burst of
// load from elsewhere on the machine hits all of them alike.
// Usage: redlock_bench [cycles per block (default 1000)] [blocks (default 5)]

#include <hiredis/hiredis.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lockscope/local_redis_server.h"
#include "lockscope/redis_lock.h"
#include "lockscope/redlock/redlock.h"

using namespace lockscope;
using Clock = std::chrono::steady_clock;

namespace {

constexpr int kNodes = 5;

[[noreturn]] void die(const std::string& message) {
    std::fprintf(stderr, "redlock_bench: %s\n", message.c_str());
    std::exit(1);
}

// The floor: five blocking hiredis contexts, every command appended to all of them before
// the first reply is read. No Lua, no owner check, no timing rules.
class Floor {
  public:
    explicit Floor(const std::vector<LocalRedisServer*>& servers) {
        for (auto* s : servers) {
            redisContext* c = redisConnect("127.0.0.1", s->port());
            if (!c || c->err) die("floor: cannot connect to " + s->url());
            contexts_.emplace_back(c);
        }
    }
    void cycle() {
        for (auto& c : contexts_) redisAppendCommand(c.get(), "SET bench:floor v NX PX 10000");
        readAll("SET");
        for (auto& c : contexts_) redisAppendCommand(c.get(), "DEL bench:floor");
        readAll("DEL");
    }

  private:
    struct Free {
        void operator()(redisContext* c) const { redisFree(c); }
    };
    void readAll(const char* what) {
        // redisGetReply would write only its own context's buffer and then block on its
        // reply, serialising the five round trips: write every buffer out first.
        for (auto& c : contexts_) {
            int done = 0;
            while (!done)
                if (redisBufferWrite(c.get(), &done) != REDIS_OK)
                    die(std::string("floor: cannot send ") + what);
        }
        for (auto& c : contexts_) {
            void* reply = nullptr;
            if (redisGetReply(c.get(), &reply) != REDIS_OK || !reply)
                die(std::string("floor: ") + what + " failed");
            auto* r = static_cast<redisReply*>(reply);
            bool ok = r->type == REDIS_REPLY_STATUS || r->type == REDIS_REPLY_INTEGER;
            freeReplyObject(r);
            if (!ok) die(std::string("floor: unexpected reply to ") + what);
        }
    }
    std::vector<std::unique_ptr<redisContext, Free>> contexts_;
};

double medianOf(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// Runs `cycle` perBlock times and returns microseconds per cycle.
double timeBlock(const std::function<void()>& cycle, int perBlock) {
    auto start = Clock::now();
    for (int i = 0; i < perBlock; ++i) cycle();
    return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / perBlock;
}

std::string run(const std::string& command, int& status) {
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    if (!pipe) {
        status = -1;
        return out;
    }
    std::array<char, 4096> buffer;
    while (std::fgets(buffer.data(), buffer.size(), pipe)) out += buffer.data();
    status = pclose(pipe);
    return out;
}

std::string lastLine(const std::string& text) {
    std::string t = text;
    while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
    auto nl = t.rfind('\n');
    return nl == std::string::npos ? t : t.substr(nl + 1);
}

// node-redlock's median microseconds per cycle, or the reason it could not run.
std::optional<double> nodeRedlock(const std::vector<LocalRedisServer*>& servers, int perBlock,
                                  int blocks, std::string& unavailable) {
    namespace fs = std::filesystem;
    fs::path dir = fs::path(__FILE__).parent_path();
    if (!fs::exists(dir / "redlock_node.mjs")) {
        unavailable = "redlock_node.mjs not found next to " + std::string(__FILE__);
        return std::nullopt;
    }
    int status = 0;
    std::string version = run("node --version 2>&1", status);
    if (status != 0) {
        unavailable = "node is not installed (" + lastLine(version) + ")";
        return std::nullopt;
    }
    if (!fs::exists(dir / "node_modules" / "redlock") ||
        !fs::exists(dir / "node_modules" / "ioredis")) {
        std::string out =
            run("cd '" + dir.string() + "' && npm ci --no-audit --no-fund 2>&1", status);
        if (status != 0) {
            unavailable = "npm ci failed in " + dir.string() + ": " + lastLine(out);
            return std::nullopt;
        }
    }
    std::string ports;
    for (auto* s : servers) ports += (ports.empty() ? "" : ",") + std::to_string(s->port());
    std::string out = run("node '" + (dir / "redlock_node.mjs").string() + "' " + ports + " " +
                              std::to_string(perBlock) + " " + std::to_string(blocks) + " 300 2>&1",
                          status);
    auto key = out.find("\"medianMicros\":");
    if (status != 0 || key == std::string::npos) {
        unavailable = "redlock_node.mjs failed: " + lastLine(out);
        return std::nullopt;
    }
    return std::strtod(out.c_str() + key + 15, nullptr);
}

}  // namespace

int main(int argc, char** argv) {
    const int perBlock = argc > 1 ? std::atoi(argv[1]) : 1000;
    const int blocks = argc > 2 ? std::atoi(argv[2]) : 5;
    if (perBlock <= 0 || blocks <= 0) die("usage: redlock_bench [cycles per block] [blocks]");

    std::vector<std::unique_ptr<LocalRedisServer>> owned;
    std::vector<LocalRedisServer*> servers;
    for (int i = 0; i < kNodes; ++i)
        servers.push_back(owned.emplace_back(std::make_unique<LocalRedisServer>()).get());

    Floor floor(servers);
    std::vector<Endpoint> endpoints;
    for (auto* s : servers) endpoints.push_back(s->endpoint());
    RedlockNodeSet nodes(endpoints);
    Connection single = Connection::open(servers[0]->endpoint());

    auto redlockCycle = [&] {
        Redlock lock(nodes, "bench:redlock", {.ttl = std::chrono::milliseconds(10'000)});
        RedlockAttempt attempt = lock.tryAcquire();
        if (!attempt.succeeded) die("redlock: " + attempt.details());
        if (!lock.release().succeeded) die("redlock: release failed");
    };
    auto singleCycle = [&] {
        RedisLock lock(single, "bench:single", {.ttl = std::chrono::milliseconds(10'000)});
        if (!lock.acquire()) die("single-instance: acquire refused");
        if (!lock.release()) die("single-instance: release found no lock");
    };
    auto floorCycle = [&] { floor.cycle(); };

    for (int i = 0; i < 300; ++i) floorCycle(), redlockCycle(), singleCycle();  // warm up
    std::vector<double> floorTimes, redlockTimes, singleTimes;
    for (int b = 0; b < blocks; ++b) {
        floorTimes.push_back(timeBlock(floorCycle, perBlock));
        redlockTimes.push_back(timeBlock(redlockCycle, perBlock));
        singleTimes.push_back(timeBlock(singleCycle, perBlock));
    }
    double floorUs = medianOf(floorTimes), redlockUs = medianOf(redlockTimes),
           singleUs = medianOf(singleTimes);

    std::string unavailable;
    auto nodeUs = nodeRedlock(servers, perBlock, blocks, unavailable);

    std::printf("redlock cycle %.0f us | floor %.0f us (%.2fx) | single-instance %.0f us | ",
                redlockUs, floorUs, redlockUs / floorUs, singleUs);
    if (nodeUs)
        std::printf("node-redlock %.0f us (%.2fx %s)\n", *nodeUs,
                    *nodeUs >= redlockUs ? *nodeUs / redlockUs : redlockUs / *nodeUs,
                    *nodeUs >= redlockUs ? "slower" : "faster");
    else
        std::printf("node-redlock: unavailable (%s)\n", unavailable.c_str());
    std::printf(
        "(%d blocks of %d cycles on %d local redis-servers, median block; goals: redlock <= 1.2x "
        "floor, "
        "faster than node-redlock)\n",
        blocks, perBlock, kNodes);
    return 0;
}
