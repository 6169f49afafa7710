#include "lockscope/watchdog.h"

#include <algorithm>

#include "lockscope/errors.h"
#include "lockscope/lock_scripts.h"

namespace lockscope {
namespace {

using std::chrono::milliseconds;

// Declare the lease lost a little before it runs out on our clock, so the report comes no
// later than the expiry on the server (whose lease started after our send time).
milliseconds safetyMargin(milliseconds ttl) { return std::max(milliseconds(2), ttl / 20); }

}  // namespace

Watchdog::Watchdog(Connection connection, Lease lease, WatchdogOptions options)
    : connection_(std::move(connection)), lease_(std::move(lease)), options_(std::move(options)) {
    if (options_.interval.count() <= 0) options_.interval = std::max(milliseconds(1), lease_.ttl / 3);
    thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
}

Watchdog::~Watchdog() { stop(); }

void Watchdog::stop() noexcept {
    if (!thread_.joinable()) return;
    thread_.request_stop();
    wake_.notify_all();
    thread_.join();
}

std::string Watchdog::lostReason() const {
    std::lock_guard lock(mutex_);
    return lostReason_;
}

void Watchdog::run(std::stop_token stop) {
    auto confirmedAt = lease_.startedAt;  // send time of the last command that set the TTL
    auto nextRenewal = confirmedAt + options_.interval;
    std::string lastError;
    while (!stop.stop_requested()) {
        auto deadline = confirmedAt + lease_.ttl - safetyMargin(lease_.ttl);
        {
            std::unique_lock lock(mutex_);
            wake_.wait_until(lock, stop, std::min(nextRenewal, deadline), [] { return false; });
        }
        if (stop.stop_requested()) return;
        if (Clock::now() >= deadline) {
            markLost("renewals kept failing until the lease ran out" +
                     (lastError.empty() ? std::string() : " (last error: " + lastError + ")"));
            return;
        }
        auto sentAt = Clock::now();
        try {
            if (!renewOnce(deadline)) {
                markLost("renewal returned 0: " + lease_.key +
                         " no longer holds our token (it expired or another client took it)");
                return;
            }
            confirmedAt = sentAt;
            nextRenewal = sentAt + options_.interval;
            renewals_.fetch_add(1);
            lastError.clear();
        } catch (const Error& e) {
            // Retry soon, but not in a tight loop; the deadline check above ends the retries.
            lastError = e.what();
            nextRenewal = Clock::now() + std::max(milliseconds(1), options_.interval / 4);
        }
    }
}

bool Watchdog::renewOnce(Clock::time_point deadline) {
    auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
    auto timeout = std::clamp(left, milliseconds(1), std::max(milliseconds(1), lease_.ttl / 3));
    connection_.setConnectTimeout(timeout);  // a reconnect must not outlast the lease either
    connection_.setCommandTimeout(timeout);
    std::string ttl = std::to_string(lease_.ttl.count());
    return connection_.eval(scripts::extend(), {lease_.key}, {lease_.token, ttl}).integer() == 1;
}

void Watchdog::markLost(const std::string& reason) {
    {
        std::lock_guard lock(mutex_);
        lostReason_ = reason;
    }
    lost_.store(true);
    cancel_.request_stop();
    if (options_.onLost) options_.onLost(reason);
}

}  // namespace lockscope
