// Uncontended acquire + release on loopback against one private redis-server, against
// the floor of two plain round trips (PING, PING) on a raw hiredis connection and against
// redis-py's Lock; and the same lock cycle over TLS (the server's TLS port, verified with the
// bench CA) against the plaintext one. Rounds alternate between the contenders and the medians
// are compared, because the machine is shared and noisy. Two PINGs through LockScope's
// transport, plaintext and TLS, show what TLS itself costs a round trip.

#include <hiredis/hiredis.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_script.h"
#include "bench_tls.h"
#include "lockscope/redis_lock.h"

namespace {

using Clock = std::chrono::steady_clock;
using namespace lockscope;

double microsPer(Clock::time_point start, int cycles) {
    return std::chrono::duration<double, std::micro>(Clock::now() - start).count() / cycles;
}

double floorRound(redisContext* c, int cycles) {
    auto start = Clock::now();
    for (int i = 0; i < cycles; ++i)
        for (int k = 0; k < 2; ++k) freeReplyObject(redisCommand(c, "PING"));
    return microsPer(start, cycles);
}

// The same two round trips through LockScope's own transport: over TLS this is the floor a
// lock cycle over TLS can reach, since the server decrypts and encrypts every command too.
double transportFloorRound(Connection& c, int cycles) {
    auto start = Clock::now();
    for (int i = 0; i < cycles; ++i)
        for (int k = 0; k < 2; ++k) c.command({"PING"});
    return microsPer(start, cycles);
}

double lockRound(RedisLock& lock, int cycles) {
    auto start = Clock::now();
    for (int i = 0; i < cycles; ++i) {
        if (!lock.acquire() || !lock.release()) {
            std::fprintf(stderr, "lock cycle failed\n");
            std::exit(1);
        }
    }
    return microsPer(start, cycles);
}

double redisPyRound(int port, int cycles) {
    std::string cmd = "/usr/bin/python3 " + bench::benchScript("lock_redis_py.py").string() + " " +
                      std::to_string(port) + " " + std::to_string(cycles);
    FILE* p = popen(cmd.c_str(), "r");
    double us = -1;
    if (p && std::fscanf(p, "%lf", &us) != 1) us = -1;
    if (p) pclose(p);
    return us;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int main() {
    constexpr int kRounds = 7, kCycles = 3000;
    bench::DualPortServer server;
    redisContext* raw = redisConnect("127.0.0.1", server.port());
    RedisLock lock(Connection::open(server.plain()), "bench:lockscope");
    RedisLock tlsLock(Connection::open(server.tls()), "bench:lockscope-tls");
    Connection plainPing = Connection::open(server.plain());
    Connection tlsPing = Connection::open(server.tls());
    floorRound(raw, 500), lockRound(lock, 500), lockRound(tlsLock, 500);  // warm up

    std::vector<double> floor, ours, overTls, py, pingPlain, pingTls;
    for (int round = 0; round < kRounds; ++round) {
        floor.push_back(floorRound(raw, kCycles));
        ours.push_back(lockRound(lock, kCycles));
        overTls.push_back(lockRound(tlsLock, kCycles));
        pingPlain.push_back(transportFloorRound(plainPing, kCycles));
        pingTls.push_back(transportFloorRound(tlsPing, kCycles));
        if (round % 2 == 0) py.push_back(redisPyRound(server.port(), kCycles));
    }
    redisFree(raw);
    double f = median(floor), l = median(ours), t = median(overTls), p = median(py);
    std::printf("lock cycle %.0f us | floor 2xPING %.0f us | ratio %.2f | ", l, f, l / f);
    if (p > 0)
        std::printf("redis-py Lock %.0f us (%.2fx slower)\n", p, p / l);
    else
        std::printf("redis-py Lock unavailable (python3-redis missing?)\n");
    double pp = median(pingPlain), pt = median(pingTls);
    std::printf(
        "tls: lock cycle %.0f us | %.2fx plaintext (goal <= 1.25x) | "
        "2xPING over TLS %.2fx plaintext | lock cycle %.2fx its TLS floor\n",
        t, t / l, pt / pp, t / pt);
}
