#include "lockscope/redis_lock.h"

#include <random>
#include <thread>

#include "lockscope/errors.h"
#include "lockscope/lock_scripts.h"
#include "lockscope/token.h"

namespace lockscope {

void validateLockName(std::string_view name) {
    if (name.empty()) throw InvalidArgumentError("lock name is empty");
    if (name.size() > 512)
        throw InvalidArgumentError("lock name is " + std::to_string(name.size()) +
                                   " bytes long; the limit is 512");
    for (unsigned char c : name) {
        if (c < 0x20 || c == 0x7f)
            throw InvalidArgumentError("lock name contains a control or binary byte (0x" +
                                       std::string(1, "0123456789abcdef"[c >> 4]) +
                                       std::string(1, "0123456789abcdef"[c & 0xf]) + ")");
        if (c == '{' || c == '}')
            throw InvalidArgumentError(
                "lock name contains a brace; braces would break the {hash tag} that keeps "
                "the lock and its fence counter in one Cluster slot");
    }
}

RedisLock::RedisLock(Connection& connection, std::string_view name, LockOptions options)
    : connection_(connection), name_(name), options_(std::move(options)) {
    validateLockName(name);
    if (options_.ttl.count() <= 0) throw InvalidArgumentError("lock TTL must be positive");
    key_ = options_.lockPrefix + "{" + name_ + "}";
    fenceKey_ = options_.fencePrefix + "{" + name_ + "}";
    token_ = randomToken();
}

RedisLock::~RedisLock() {
    stopWatchdog();
}

std::optional<std::int64_t> RedisLock::acquire() {
    auto sentAt = Clock::now();
    std::string ttl = std::to_string(options_.ttl.count());
    Reply reply = connection_.eval(scripts::acquire(), {key_, fenceKey_}, {token_, ttl});
    if (reply.integer() <= 0) return std::nullopt;
    fence_ = reply.integer();
    acquiredAt_ = sentAt;
    return fence_;
}

std::optional<std::int64_t> RedisLock::acquire(Clock::time_point deadline, RetryOptions retry) {
    thread_local std::minstd_rand jitterSource{std::random_device{}()};  // timing only, not tokens
    while (true) {
        if (auto fence = acquire()) return fence;
        auto jitter = retry.jitter.count() > 0
                          ? std::chrono::milliseconds(jitterSource() % (retry.jitter.count() + 1))
                          : std::chrono::milliseconds(0);
        auto next = Clock::now() + retry.delay + jitter;
        if (next >= deadline) return std::nullopt;
        std::this_thread::sleep_until(next);
    }
}

bool RedisLock::extend() {
    std::string ttl = std::to_string(options_.ttl.count());
    return connection_.eval(scripts::extend(), {key_}, {token_, ttl}).integer() == 1;
}

bool RedisLock::release() {
    stopWatchdog();
    return connection_.eval(scripts::release(), {key_}, {token_}).integer() == 1;
}

Watchdog& RedisLock::startWatchdog(WatchdogOptions options) {
    stopWatchdog();
    Connection own = connection_.openSibling();
    own.setCommandTimeout(
        std::min(own.commandTimeout(), std::max(options_.ttl / 3, std::chrono::milliseconds(1))));
    watchdog_ = std::make_unique<Watchdog>(
        std::move(own), Lease{key_, token_, options_.ttl, acquiredAt_}, std::move(options));
    return *watchdog_;
}

void RedisLock::stopWatchdog() noexcept {
    if (watchdog_) watchdog_->stop();
}

LockGuard::~LockGuard() noexcept {
    try {
        lock_->release();
    } catch (...) {
        // The lease expires by itself; a destructor must not throw (redis-plus-plus #659).
    }
}

}  // namespace lockscope
