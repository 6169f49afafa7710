#include "bench_keyspace.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <thread>

namespace lockscope::bench {

double seconds(Clock::duration d) {
    return std::chrono::duration<double>(d).count();
}

redisContext* rawConnect(int port) {
    redisContext* c = redisConnect("127.0.0.1", port);
    if (!c || c->err) {
        std::fprintf(stderr, "cannot connect to the bench server\n");
        std::exit(1);
    }
    return c;
}

void loadLockKeyspace(int port, long locks) {
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

std::string lockCountLabel(long locks) {
    return locks % 1'000'000 == 0 ? std::to_string(locks / 1'000'000) + "M"
           : locks % 1000 == 0    ? std::to_string(locks / 1000) + "k"
                                  : std::to_string(locks);
}

}  // namespace lockscope::bench
