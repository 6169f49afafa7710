#pragma once
// What the inspector benches share: a raw hiredis connection, the 1M-lock keyspace (N lock
// keys with fence counters among 3N keys), the names-only SCAN floor, and waiting for the
// server to finish rehashing after the load.

#include <hiredis/hiredis.h>

#include <chrono>
#include <string>
#include <utility>

namespace lockscope::bench {

using Clock = std::chrono::steady_clock;

double seconds(Clock::duration d);

// Connects to the bench server on 127.0.0.1 or exits.
redisContext* rawConnect(int port);

// lock:{job<i>} = 32 hex, PX 1 h; fence:{job<i>} = i; other:<i> = payload.
void loadLockKeyspace(int port, long locks);

// A names-only SCAN MATCH lock:* COUNT 1000 loop: {keys, seconds}.
std::pair<long, double> floorScan(int port);

// Loading grows the key tables and Redis rehashes them bit by bit, which slows every scan
// until done: let the cron rehash faster for a moment and wait until it has finished.
void waitForRehash(int port);

// "1M", "100k", or the number.
std::string lockCountLabel(long locks);

}  // namespace lockscope::bench
