#include "lockscope/watchdog.h"

#include <algorithm>
#include <exception>
#include <memory>

#include "lockscope/errors.h"
#include "lockscope/lock_scripts.h"

namespace lockscope {
namespace {

using std::chrono::milliseconds;
using Clock = std::chrono::steady_clock;

// Declare the lease lost a little before it runs out on our clock, so the report comes no
// later than the expiry on the server (whose lease started after our send time).
milliseconds safetyMargin(milliseconds ttl) {
    return std::max(milliseconds(2), ttl / 20);
}

// The single-instance renewal: the guide's extend script, with timeouts that cannot outlast
// the lease. The connection is shared with the function only because std::function must be
// copyable; only the watchdog's thread ever uses it.
RenewFunction extendScriptRenewal(Connection connection, Lease lease) {
    auto shared = std::make_shared<Connection>(std::move(connection));
    return [shared, lease = std::move(lease)](Clock::time_point sentAt,
                                              Clock::time_point deadline) {
        auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
        auto timeout = std::clamp(left, milliseconds(1), std::max(milliseconds(1), lease.ttl / 3));
        shared->setConnectTimeout(timeout);  // a reconnect must not outlast the lease either
        shared->setCommandTimeout(timeout);
        std::string ttl = std::to_string(lease.ttl.count());
        if (shared->eval(scripts::extend(), {lease.key}, {lease.token, ttl}).integer() != 1)
            return Renewal::lost(
                "renewal returned 0: " + lease.key +
                " no longer holds our token (it expired or another client took it)");
        return Renewal::renewed(sentAt + lease.ttl - safetyMargin(lease.ttl));
    };
}

RenewalSchedule scheduleOf(const Lease& lease) {
    return {lease.ttl, lease.startedAt, lease.startedAt + lease.ttl - safetyMargin(lease.ttl)};
}

}  // namespace

Watchdog::Watchdog(Connection connection, Lease lease, WatchdogOptions options)
    : Watchdog(extendScriptRenewal(std::move(connection), lease), scheduleOf(lease),
               std::move(options)) {}

Watchdog::Watchdog(RenewFunction renew, RenewalSchedule schedule, WatchdogOptions options)
    : renew_(std::move(renew)), schedule_(std::move(schedule)), options_(std::move(options)) {
    if (options_.interval.count() <= 0)
        options_.interval = std::max(milliseconds(1), schedule_.ttl / 3);
    thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
}

Watchdog::~Watchdog() {
    stop();
}

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
    auto deadline = schedule_.deadline;
    auto nextRenewal = schedule_.confirmedAt + options_.interval;
    std::string lastError;
    while (!stop.stop_requested()) {
        {
            std::unique_lock lock(mutex_);
            wake_.wait_until(lock, stop, std::min(nextRenewal, deadline), [] { return false; });
        }
        if (stop.stop_requested()) return;
        if (Clock::now() >= deadline) {
            markLost("renewals kept failing until the " + schedule_.leaseName + " ran out" +
                     (lastError.empty() ? std::string() : " (last error: " + lastError + ")"));
            return;
        }
        auto sentAt = Clock::now();
        Renewal renewal;
        try {
            renewal = renew_(sentAt, deadline);
        } catch (const std::exception& e) {
            // An exception must not end the thread (std::terminate) or the watch: treat it as
            // a failed renewal, retried until the deadline like any other.
            renewal = Renewal::failed(e.what());
        }
        switch (renewal.result) {
            case Renewal::Result::Renewed:
                deadline = renewal.deadline;
                nextRenewal = sentAt + options_.interval;
                renewals_.fetch_add(1);
                lastError.clear();
                break;
            case Renewal::Result::Lost:
                markLost(renewal.reason);
                return;
            case Renewal::Result::Failed:
                // Retry soon, but not in a tight loop; the deadline check above ends the retries.
                lastError = renewal.reason;
                nextRenewal = Clock::now() + std::max(milliseconds(1), options_.interval / 4);
                break;
        }
    }
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
