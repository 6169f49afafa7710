// holdLock(): endpoint or connection + name + options + deadline → a held, watched lock
// whose handle owns the lock and the connection.
#include "lockscope/hold_lock.h"

#include <algorithm>
#include <utility>

#include "command_budget.h"
#include "held_lock_state.h"
#include "lockscope/redis_lock.h"

namespace lockscope {

struct detail::HeldLockAccess {
    static void adopt(HeldLock& held, std::unique_ptr<RedisLock> lock) {
        held.state_->ownedLock = std::move(lock);
    }
};

namespace {

using Clock = std::chrono::steady_clock;

// Connecting counts against the deadline too; the connection keeps the caller's timeout
// for later (the watchdog's sibling connects with it).
std::shared_ptr<Connection> connectBefore(const Endpoint& endpoint, ConnectionOptions options,
                                          Clock::time_point deadline) {
    auto wanted = options.connectTimeout;
    auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now());
    options.connectTimeout = std::min(wanted, std::max(left, detail::CommandBudget::minimum));
    auto connection = std::make_shared<Connection>(Connection::open(endpoint, options));
    connection->setConnectTimeout(wanted);
    return connection;
}

}  // namespace

std::optional<HeldLock> holdLock(const Endpoint& endpoint, std::string_view name,
                                 Clock::time_point deadline, const LockOptions& options,
                                 HoldOptions hold, const ConnectionOptions& connection) {
    validateLockName(name);  // before connecting: a bad call reaches nothing
    validateLockOptions(options);
    return holdLock(connectBefore(endpoint, connection, deadline), name, deadline, options,
                    std::move(hold));
}

std::optional<HeldLock> holdLock(std::shared_ptr<Connection> connection, std::string_view name,
                                 Clock::time_point deadline, const LockOptions& options,
                                 HoldOptions hold) {
    auto lock = std::make_unique<RedisLock>(std::move(connection), name, options);
    auto held = lock->hold(deadline, std::move(hold));
    if (held) detail::HeldLockAccess::adopt(*held, std::move(lock));
    return held;
}

}  // namespace lockscope
