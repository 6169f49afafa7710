#pragma once
// Sorted-set locks, recognised by their members: Symfony Lock's RedisStore keeps a zset at
// the bare resource name (no prefix to go by), so only a strict look at its members and
// scores tells it from the other zsets a pattern meets (Sidekiq's schedule/retry/dead, BullMQ's
// :delayed, leaderboards). redis-semaphore's semaphore:<key> is recognised by its key.
// Internal to lockscope_inspect; pure functions, no I/O.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect::formats {

// Symfony's write-lock marker member (RedisStore::save adds it beside the holder's token).
inline constexpr std::string_view kSymfonyWriteMember = "__write__";

// RedisStore::getUniqueToken(): base64_encode(random_bytes(32)), 44 characters ending "=".
bool isSymfonyToken(std::string_view member);

// A score as these libraries write one: whole epoch milliseconds; nullopt otherwise.
std::optional<std::int64_t> epochMsScore(std::string_view score);

// The kind of a sorted set from its members (field = member, value = score); nullopt when
// no sorted-set library claims it. wallNow: a Symfony lock's latest expiry is never far
// in the past (the key itself expires then).
std::optional<LockKind> zsetKindByMembers(const std::vector<HashField>& members,
                                          std::chrono::system_clock::time_point wallNow);

}  // namespace lockscope::inspect::formats
