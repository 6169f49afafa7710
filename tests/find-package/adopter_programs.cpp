// The four programs an adopter writes first (issue 33), built against the installed package
// with -Wall -Wextra -Werror: a fenced nightly job, a worker with the RAII hold and its
// watchdog, Redlock over three servers, and the lock through the standard lock adapters.
// Run with a redis:// URL (and two more for Redlock) it does the work; without, it only
// shows that everything compiled and linked.
#include <lockscope/errors.h>
#include <lockscope/fenced_store.h>
#include <lockscope/hold_lock.h>
#include <lockscope/redis_lock.h>
#include <lockscope/redlock/redlock.h>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <string>

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

namespace {

int fencedNightlyJob(const lockscope::Endpoint& endpoint) {
    lockscope::FencedStore store(":memory:");
    auto held = lockscope::holdLock(endpoint, "report:nightly", Clock::now() + 5s, {.ttl = 30s});
    if (!held) return 1;
    auto write = store.write("nightly", "report body", held->fence());
    return write.accepted() && held->release() ? 0 : 1;
}

int workerWithWatchdog(const lockscope::Endpoint& endpoint) {
    lockscope::RedisLock lock(lockscope::Connection::open(endpoint), "worker:queue", {.ttl = 3s});
    auto held = lock.hold(Clock::now() + 2s, {.retry = {.delay = 20ms},
                                              .watchdog = {.onLost = [](const std::string& why) {
                                                  std::fprintf(stderr, "lost: %s\n", why.c_str());
                                              }}});
    if (!held) return 1;
    for (int step = 0; step < 3 && !held->cancellation().stop_requested(); ++step) {
    }
    return held->release() ? 0 : 1;
}

int redlockOverThree(const lockscope::Endpoint& a, const lockscope::Endpoint& b,
                     const lockscope::Endpoint& c) {
    lockscope::Redlock lock(lockscope::RedlockNodeSet({a, b, c}), "job", {.ttl = 10s});
    auto attempt = lock.tryAcquire();
    if (!attempt.succeeded) return 1;
    lockscope::RedlockGuard guard(lock);
    return lock.isValid() ? 0 : 1;
}

int standardAdapters(const lockscope::Endpoint& endpoint) {
    auto connection =
        std::make_shared<lockscope::Connection>(lockscope::Connection::open(endpoint));
    lockscope::RedisLock first(connection, "std:first", {.ttl = 5s});
    lockscope::RedisLock second(connection, "std:second", {.ttl = 5s});
    {
        std::unique_lock guard(first);
        if (first.try_lock()) return 1;  // already held through this object
    }
    if (!first.try_lock_for(1s)) return 1;
    first.unlock();
    std::scoped_lock both(first, second);
    return first.isHeld() && second.isHeld() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::printf("built: pass redis:// URLs to run\n");
        return 0;
    }
    try {
        auto endpoint = lockscope::parseEndpoint(argv[1]);
        int failed =
            fencedNightlyJob(endpoint) + workerWithWatchdog(endpoint) + standardAdapters(endpoint);
        if (argc >= 4)
            failed += redlockOverThree(endpoint, lockscope::parseEndpoint(argv[2]),
                                       lockscope::parseEndpoint(argv[3]));
        return failed == 0 ? 0 : 1;
    } catch (const lockscope::Error& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 1;
    }
}
