#pragma once
// The common case in one call, as redis-py's `with r.lock(name, timeout=..,
// blocking_timeout=..)` and Redisson's tryLockAndGetToken(wait, lease) offer it: connect,
// build the lock, wait for it until a deadline, start the watchdog, and return a handle that
// owns all of it — its fence, its cancellation, its loss report — and releases the lock,
// stops the watchdog and closes the connection when it goes out of scope.
//
//     using namespace std::chrono_literals;
//     auto endpoint = lockscope::parseEndpoint("redis://127.0.0.1:6379");
//     if (auto held = lockscope::holdLock(endpoint, "report:daily",
//                                         std::chrono::steady_clock::now() + 5s, {.ttl = 30s})) {
//         write(held->fence());  // stop when held->cancellation() is requested
//     }
//
// Errors: InvalidArgumentError for a bad name or options, before anything is sent or
// connected; the IoError of the last attempt when the server could not be reached by the
// deadline (connecting included: it is capped at the time left); ReplyError subclasses at
// once (wrong password, ACL). nullopt: another holder kept the lock until the deadline, or
// `hold.stop` was requested.

#include <chrono>
#include <memory>
#include <optional>
#include <string_view>

#include "lockscope/connection.h"
#include "lockscope/held_lock.h"
#include "lockscope/lock_options.h"

namespace lockscope {

[[nodiscard]] std::optional<HeldLock> holdLock(const Endpoint& endpoint, std::string_view name,
                                               std::chrono::steady_clock::time_point deadline,
                                               const LockOptions& options = {},
                                               HoldOptions hold = {},
                                               const ConnectionOptions& connection = {});

// Over a connection the caller already has (shared, as RedisLock shares it).
[[nodiscard]] std::optional<HeldLock> holdLock(std::shared_ptr<Connection> connection,
                                               std::string_view name,
                                               std::chrono::steady_clock::time_point deadline,
                                               const LockOptions& options = {},
                                               HoldOptions hold = {});

}  // namespace lockscope
