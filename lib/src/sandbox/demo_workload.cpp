#include "lockscope/sandbox/demo_workload.h"

#include "lockscope/connection.h"
#include "lockscope/errors.h"
#include "lockscope/redis_lock.h"
#include "lockscope/token.h"

namespace lockscope {

using namespace std::chrono_literals;

DemoWorkload::DemoWorkload(Endpoint endpoint) : endpoint_(std::move(endpoint)) {
    leaveOrphan();
    holders_.emplace_back([this](const std::stop_token& s) { longJob(s); });
    holders_.emplace_back([this](const std::stop_token& s) { turnTaker(s, 1); });
    holders_.emplace_back([this](const std::stop_token& s) { turnTaker(s, 2); });
    holders_.emplace_back([this](const std::stop_token& s) { fixedValueHolder(s); });
}

DemoWorkload::~DemoWorkload() {
    stop();
}

void DemoWorkload::stop() {
    for (auto& h : holders_) h.request_stop();
    wake_.notify_all();
    holders_.clear();  // joins
}

bool DemoWorkload::sleepFor(const std::stop_token& stop, std::chrono::milliseconds duration) {
    std::unique_lock lock(mutex_);
    return !wake_.wait_for(lock, stop, duration, [] { return false; }) && !stop.stop_requested();
}

void DemoWorkload::leaveOrphan() {
    // The guide's first mistake: SETNX, then the client crashes before EXPIRE.
    Connection c = Connection::open(endpoint_);
    c.command({"SETNX", "lock:{cache:rebuild}", randomToken()});
    c.command({"INCR", "fence:{cache:rebuild}"});
}

void DemoWorkload::longJob(const std::stop_token& stop) {
    while (!stop.stop_requested()) {
        try {
            RedisLock lock(Connection::open(endpoint_), "report:nightly", {.ttl = 6000ms});
            if (auto held = lock.hold(std::chrono::steady_clock::now() + 10s, {.stop = stop})) {
                // A 20-second job in chunks, abandoning work the moment the lock is lost.
                for (int chunk = 0; chunk < 40 && !held->cancellation().stop_requested(); ++chunk)
                    if (!sleepFor(stop, 500ms)) break;
            }
            if (!sleepFor(stop, 3s)) return;
        } catch (const Error&) {
            errors_.fetch_add(1);
            if (!sleepFor(stop, 1s)) return;
        }
    }
}

void DemoWorkload::turnTaker(const std::stop_token& stop, int worker) {
    while (!stop.stop_requested()) {
        try {
            auto c = std::make_shared<Connection>(Connection::open(endpoint_));
            while (!stop.stop_requested()) {
                RedisLock lock(c, "invoice:batch", {.ttl = 8000ms});
                if (lock.acquire(std::chrono::steady_clock::now() + 15s, {200ms, 300ms})) {
                    LockGuard guard(lock);
                    if (!sleepFor(stop, std::chrono::milliseconds(2500 + 700 * worker))) return;
                }
                if (!sleepFor(stop, 300ms)) return;
            }
        } catch (const Error&) {
            errors_.fetch_add(1);
            if (!sleepFor(stop, 1s)) return;
        }
    }
}

void DemoWorkload::fixedValueHolder(const std::stop_token& stop) {
    // The guide's broken nightly job: SET lock:report 1 NX EX 10, taken again once it expires.
    while (!stop.stop_requested()) {
        try {
            Connection c = Connection::open(endpoint_);
            while (!stop.stop_requested()) {
                c.command({"SET", "lock:report", "1", "NX", "EX", "10"});
                if (!sleepFor(stop, 1s)) return;
            }
        } catch (const Error&) {
            errors_.fetch_add(1);
            if (!sleepFor(stop, 1s)) return;
        }
    }
}

}  // namespace lockscope
