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

// The single-instance renewal: the guide's extend script, with timeouts that cannot outlast
// the lease. The connection is shared with the function only because std::function must be
// copyable; only the watchdog's thread ever uses it.
RenewFunction extendScriptRenewal(Connection connection, const Lease& lease) {
    auto shared = std::make_shared<Connection>(std::move(connection));
    return [shared, lease](Clock::time_point sentAt, Clock::time_point deadline) {
        auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
        auto timeout = std::clamp(left, milliseconds(1), std::max(milliseconds(1), lease.ttl / 3));
        shared->setConnectTimeout(timeout);  // a reconnect must not outlast the lease either
        shared->setCommandTimeout(timeout);
        std::string ttl = std::to_string(lease.ttl.count());
        Reply reply = lease.holderKey.empty()
                          ? shared->eval(scripts::extend(), {lease.key}, {lease.token, ttl})
                          : shared->eval(scripts::extendWithHolder(), {lease.key, lease.holderKey},
                                         {lease.token, ttl});
        if (reply.integer() != 1)
            return Renewal::lost(
                "renewal returned 0: " + lease.key +
                " no longer holds our token (it expired or another client took it)");
        return Renewal::renewed(sentAt + lease.ttl - leaseSafetyMargin(lease.ttl));
    };
}

RenewalSchedule scheduleOf(const Lease& lease) {
    return {lease.ttl, lease.startedAt, lease.startedAt + lease.ttl - leaseSafetyMargin(lease.ttl)};
}

}  // namespace

milliseconds leaseSafetyMargin(milliseconds ttl) {
    return std::max(milliseconds(2), ttl / 20);
}

Watchdog::Watchdog(Connection connection, const Lease& lease, WatchdogOptions options)
    : Watchdog(extendScriptRenewal(std::move(connection), lease), scheduleOf(lease),
               std::move(options)) {}

Watchdog::Watchdog(RenewFunction renew, RenewalSchedule schedule, WatchdogOptions options)
    : renew_(std::move(renew)), schedule_(std::move(schedule)), options_(std::move(options)) {
    if (options_.interval.count() <= 0)
        options_.interval = std::max(milliseconds(1), schedule_.ttl / 3);
    auto lease =
        std::chrono::duration_cast<milliseconds>(schedule_.deadline - schedule_.confirmedAt);
    if (options_.interval >= lease)
        throw InvalidArgumentError(
            "watchdog interval " + std::to_string(options_.interval.count()) +
            " ms is not shorter than the " + schedule_.leaseName + " (" +
            std::to_string(lease.count()) +
            " ms before it is given up): no renewal would be sent in time; use 0 for ttl / 3");
    deadline_ = schedule_.deadline;
    nextRenewal_ = schedule_.confirmedAt + options_.interval;
    thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
}

Watchdog::~Watchdog() {
    if (onOwnThread()) {
        // Destroyed from inside onLost (the lock that owned it went away there): the thread
        // cannot join itself. It touches nothing of this object after onLost returns.
        thread_.request_stop();
        thread_.detach();
        return;
    }
    stop();
}

void Watchdog::stop() noexcept {
    if (!thread_.joinable()) return;
    thread_.request_stop();
    wake_.notify_all();
    if (onOwnThread()) return;  // inside onLost: the loop ends when the callback returns
    thread_.join();
}

bool Watchdog::onOwnThread() const {
    return ownThread_.load() == std::this_thread::get_id();
}

void Watchdog::leaseRenewed(Clock::time_point confirmedAt, Clock::time_point deadline) {
    {
        std::lock_guard lock(mutex_);
        if (deadline <= deadline_) return;
        deadline_ = deadline;
        nextRenewal_ = confirmedAt + options_.interval;
    }
    wake_.notify_all();
}

Watchdog::Clock::time_point Watchdog::deadline() const {
    std::lock_guard lock(mutex_);
    return deadline_;
}

std::string Watchdog::lostReason() const {
    std::lock_guard lock(mutex_);
    return lostReason_;
}

void Watchdog::run(std::stop_token stop) {
    ownThread_.store(std::this_thread::get_id());
    std::string lastError;
    while (!stop.stop_requested()) {
        Clock::time_point deadline;
        {
            // Woken early by stop() and by leaseRenewed(), which may move both instants.
            std::unique_lock lock(mutex_);
            auto wakeAt = std::min(nextRenewal_, deadline_);
            wake_.wait_until(lock, stop, wakeAt,
                             [&] { return std::min(nextRenewal_, deadline_) != wakeAt; });
            if (Clock::now() < std::min(nextRenewal_, deadline_)) continue;
            deadline = deadline_;
        }
        if (stop.stop_requested()) return;
        if (Clock::now() >= deadline) {
            markLost("renewals kept failing until the " + schedule_.leaseName + " ran out" +
                     (lastError.empty() ? std::string() : " (last error: " + lastError + ")"));
            return;  // markLost may have destroyed this watchdog
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
        if (renewal.result == Renewal::Result::Lost) {
            markLost(renewal.reason);  // may destroy this watchdog: return at once
            return;
        }
        std::lock_guard lock(mutex_);
        if (renewal.result == Renewal::Result::Renewed) {
            deadline_ = std::max(deadline_, renewal.deadline);
            nextRenewal_ = sentAt + options_.interval;
            renewals_.fetch_add(1);
            lastError.clear();
        } else {
            // Retry soon, but not in a tight loop; the deadline check above ends the retries.
            lastError = renewal.reason;
            nextRenewal_ = Clock::now() + std::max(milliseconds(1), options_.interval / 4);
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
    // A copy: onLost may destroy this watchdog (through the lock that owns it), and with it
    // options_. Nothing of `this` is touched after the call.
    auto onLost = options_.onLost;
    if (!onLost) return;
    try {
        onLost(reason);
    } catch (...) {
        // A callback's exception would terminate the process from this thread.
    }
}

}  // namespace lockscope
