#pragma once
// Key and value shapes of the job frameworks and lock libraries beyond the first six
// (DESIGN.md, "Lock formats beyond the first six"). Each recogniser answers only for the
// shape its library writes and leaves everything else to the value-based rules.
// Internal to lockscope_inspect; pure functions, no I/O.

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect::formats {

using Span = std::pair<std::size_t, std::size_t>;  // (offset, length) into the key

// A string key and value written by one of these libraries; nullopt when none claims it.
std::optional<LockKind> stringKindByShape(std::string_view key, std::string_view value);
std::optional<LockKind> hashKindByShape(std::string_view key, const std::vector<HashField>& fields);
std::optional<LockKind> otherKindByShape(std::string_view key, ValueType type);

// The resource inside a library key (the ShedLock job name, the sidekiq digest...).
std::optional<Span> libraryResourceSpan(std::string_view key);

// ADDED:<iso-time>@<host> or ADDED:<iso-time>@<host>:<uuid> (ShedLock's buildValue()).
bool isShedLockValue(std::string_view value);
// sidekiq-unique-jobs' bookkeeping keys shared by all digests: no lock of their own.
bool isSidekiqGlobalKey(std::string_view key);
// The digest a sidekiq-unique-jobs key belongs to ("uniquejobs:<md5>[:RUN]"), or nullopt.
std::optional<std::string_view> sidekiqDigestOf(std::string_view key);
// redis-semaphore's holder id: a uuid4, optionally followed by "-<suffix>".
bool isRedisSemaphoreId(std::string_view value);
// BullMQ's worker token: "<uuid v4>:<n>" (the worker's id and a job counter).
bool isBullMqToken(std::string_view value);
// "<uuid>:<threadId>" or the write lock's "<uuid>:<threadId>:write".
bool isRedissonRwHolderField(std::string_view field);

}  // namespace lockscope::inspect::formats
