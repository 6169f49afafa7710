#include "library_shapes.h"

#include <algorithm>
#include <array>

#include "lockscope/inspect/value_classifier.h"

namespace lockscope::inspect::formats {
namespace {

// Sources read for each shape (cited so the next reader can check them):
//  ShedLock providers/redis/.../RedisLockProvider.java: buildKey "%s:%s:%s" (job-lock, env,
//    name), buildValue "ADDED:%s@%s" (newer: "ADDED:%s@%s:%s" with a random UUID).
//  Laravel Illuminate/Bus/UniqueLock.php: 'laravel_unique_job:'.get_class($job).':'.$uniqueId;
//    Illuminate/Queue/Middleware/WithoutOverlapping.php: prefix 'laravel-queue-overlap:';
//    both go through Cache\RedisStore::lock, which puts the cache (and connection) prefix first.
//  sidekiq-unique-jobs lib/sidekiq_unique_jobs/key.rb: "<digest>:QUEUED|PRIMED|LOCKED|INFO",
//    DIGESTS = uniquejobs:digests, EXPIRING_DIGESTS, CHANGELOGS, working/heartbeat keys.
//  RedLock.net RedLockFactory: redis key format "redlock-{0}", value Guid.NewGuid().
//  pottery redlock.py: key f"{_KEY_PREFIX}:{key}" with _KEY_PREFIX "redlock", uuid4 value.
//  celery_once/helpers.py queue_once_key: "qo_" + task name + "_<k>-<v>" per sorted kwarg.
//  activejob-uniqueness lock_key: "activejob_uniqueness:<job>:<md5>", runtime_lock_key +
//  ":runtime". Redisson RedissonReadLock.java: rw hash {mode, <uuid>:<tid>}, lease keys
//    "{name}:<uuid>:<tid>:rwlock_timeout:<n>"; RedissonWriteLock: field "<uuid>:<tid>:write".
//  BullMQ 5 worker.js: token `${this.id}:${tokenPostfix++}` with id = uuid v4, stored in
//    "<prefix>:<queue>:<jobId>:lock" by moveToActive; Bull 4 queue.js: this.token = uuid.v4(),
//    the same key (job.js lockKey()). Both default to the prefix "bull".
//  redis-semaphore 5 RedisMutex.js: key `mutex:${key}`, Lock.js identifier crypto.randomUUID()
//    (with `-${identifierSuffix}` when set), released by mutex/release.js delIfEqualLua;
//    RedisSemaphore.js: `semaphore:${key}`, a zset of identifiers scored by acquire time.

constexpr std::array<std::string_view, 2> kLaravelMarkers = {"laravel_unique_job:",
                                                             "laravel-queue-overlap:"};
constexpr std::array<std::string_view, 4> kSidekiqSuffixes = {":QUEUED", ":PRIMED", ":LOCKED",
                                                              ":INFO"};
constexpr std::string_view kSidekiqPrefix = "uniquejobs:";
constexpr std::array<std::string_view, 5> kSidekiqGlobal = {
    "uniquejobs:digests", "uniquejobs:expiring_digests", "uniquejobs:changelog",
    "uniquejobs:working:", "uniquejobs:heartbeat:"};

bool isDigits(std::string_view s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A number as sidekiq writes a lock time (Time.now.to_f: digits with one optional point).
bool isDecimal(std::string_view s) {
    auto point = s.find('.');
    if (point == std::string_view::npos) return isDigits(s);
    return isDigits(s.substr(0, point)) && (point + 1 == s.size() || isDigits(s.substr(point + 1)));
}

std::optional<std::size_t> laravelMarker(std::string_view key) {
    for (auto m : kLaravelMarkers)
        if (auto at = key.find(m); at != std::string_view::npos) return at + m.size();
    return std::nullopt;
}

bool hasSidekiqSuffix(std::string_view key) {
    return std::any_of(kSidekiqSuffixes.begin(), kSidekiqSuffixes.end(),
                       [&](auto s) { return key.ends_with(s) && key.size() > s.size(); });
}

bool isUuid4(std::string_view s) {
    return isDashedUuid(s) && s[14] == '4';
}

// "<prefix>:<queue>:<jobId>:lock": at least three non-empty parts before ":lock".
bool isJobLockKey(std::string_view key) {
    if (!key.ends_with(":lock")) return false;
    std::string_view rest = key.substr(0, key.size() - 5);
    auto id = rest.rfind(':');
    if (id == std::string_view::npos || id == 0 || id + 1 == rest.size()) return false;
    auto queue = rest.rfind(':', id - 1);
    return queue != std::string_view::npos && queue > 0 && queue + 1 < id;
}

}  // namespace

bool isRedisSemaphoreId(std::string_view value) {
    return value.size() >= 36 && isUuid4(value.substr(0, 36)) &&
           (value.size() == 36 || (value[36] == '-' && value.size() > 37));
}

bool isBullMqToken(std::string_view value) {
    auto colon = value.find(':');
    return colon == 36 && isUuid4(value.substr(0, colon)) && isDigits(value.substr(colon + 1));
}

bool isShedLockValue(std::string_view value) {
    if (!value.starts_with("ADDED:")) return false;
    auto at = value.find('@');
    return at != std::string_view::npos && at > 6 && at + 1 < value.size();
}

bool isSidekiqGlobalKey(std::string_view key) {
    return std::any_of(kSidekiqGlobal.begin(), kSidekiqGlobal.end(),
                       [&](auto g) { return g.ends_with(':') ? key.starts_with(g) : key == g; });
}

std::optional<std::string_view> sidekiqDigestOf(std::string_view key) {
    if (isSidekiqGlobalKey(key)) return std::nullopt;
    for (auto s : kSidekiqSuffixes)
        if (key.ends_with(s) && key.size() > s.size()) return key.substr(0, key.size() - s.size());
    if (key.starts_with(kSidekiqPrefix) && key.size() > kSidekiqPrefix.size()) return key;
    return std::nullopt;
}

bool isRedissonRwHolderField(std::string_view field) {
    if (field.ends_with(":write")) field.remove_suffix(6);
    return isRedissonHolderField(field);
}

std::optional<LockKind> stringKindByShape(std::string_view key, std::string_view value) {
    if (isJobLockKey(key)) {
        if (isBullMqToken(value)) return LockKind::BullMQ;
        if (isUuid4(value)) return LockKind::Bull;
    }
    if (key.starts_with("mutex:") && key.size() > 6 && isRedisSemaphoreId(value))
        return LockKind::RedisSemaphore;
    if (key.find(":rwlock_timeout:") != std::string_view::npos && key.starts_with('{'))
        return LockKind::RedissonRwTimeout;
    if (isShedLockValue(value)) return LockKind::ShedLock;
    if (laravelMarker(key)) return LockKind::Laravel;
    if (key.starts_with(kSidekiqPrefix))
        return isSidekiqGlobalKey(key) ? LockKind::NotALock : LockKind::SidekiqUniqueJobs;
    if (key.starts_with("activejob_uniqueness:")) return LockKind::ActiveJobUniqueness;
    if (key.starts_with("qo_") && key.size() > 3) return LockKind::CeleryOnce;
    if (key.starts_with("redlock-") && isDashedUuid(value)) return LockKind::RedlockNet;
    if (key.starts_with("redlock:") && isUuid4(value)) return LockKind::Pottery;
    return std::nullopt;
}

namespace {

// LockScope's own holder:{name} hash (LockOptions::holder): it describes the holder of
// lock:{name}, which is listed itself; a wide SCAN pattern must not list it as a lock too.
bool isOwnHolderRecord(std::string_view key, const std::vector<HashField>& fields) {
    if (!key.starts_with("holder:{")) return false;
    auto has = [&](std::string_view name) {
        return std::any_of(fields.begin(), fields.end(),
                           [&](const HashField& f) { return f.field == name; });
    };
    return has("token") && has("pid") && has("host");
}

}  // namespace

std::optional<LockKind> hashKindByShape(std::string_view key,
                                        const std::vector<HashField>& fields) {
    if (fields.empty()) return std::nullopt;
    if (isOwnHolderRecord(key, fields)) return LockKind::NotALock;
    auto mode = std::find_if(fields.begin(), fields.end(),
                             [](const HashField& f) { return f.field == "mode"; });
    if (mode != fields.end() && (mode->value == "read" || mode->value == "write") &&
        std::all_of(fields.begin(), fields.end(), [&](const HashField& f) {
            return &f == &*mode || (isRedissonRwHolderField(f.field) && isDigits(f.value));
        }))
        return LockKind::RedissonReadWriteLock;
    // LOCKED: job id -> the time it locked (v7/v8 under uniquejobs:, v9 any digest).
    bool lockedHash = key.ends_with(":LOCKED") && key.size() > 7 &&
                      std::all_of(fields.begin(), fields.end(), [](const HashField& f) {
                          return !f.field.empty() && isDecimal(f.value);
                      });
    if (lockedHash || (key.starts_with(kSidekiqPrefix) && !isSidekiqGlobalKey(key)))
        return LockKind::SidekiqUniqueJobs;
    if (laravelMarker(key)) return LockKind::Laravel;
    return std::nullopt;
}

std::optional<LockKind> otherKindByShape(std::string_view key, ValueType type) {
    if (type == ValueType::ZSet && key.starts_with("semaphore:") && key.size() > 10)
        return LockKind::RedisSemaphore;
    if (!key.starts_with(kSidekiqPrefix)) return std::nullopt;
    if (isSidekiqGlobalKey(key)) return LockKind::NotALock;
    // QUEUED and PRIMED are the digest's lists of jobs waiting for it.
    if (type == ValueType::List && hasSidekiqSuffix(key)) return LockKind::SidekiqUniqueJobs;
    return std::nullopt;
}

std::optional<Span> libraryResourceSpan(std::string_view key) {
    auto after = [&](std::size_t from) -> std::optional<Span> {
        if (from >= key.size()) return std::nullopt;
        return Span{from, key.size() - from};
    };
    if (key.starts_with("bull:") && isJobLockKey(key))  // bull:<queue>:<jobId>:lock
        return Span{5, key.size() - 5 - 5};
    if (key.starts_with("job-lock:")) {  // job-lock:<env>:<name>
        auto env = key.find(':', 9);
        if (env != std::string_view::npos) return after(env + 1);
    }
    if (auto m = laravelMarker(key)) return after(*m);
    if (key.starts_with(kSidekiqPrefix))
        if (auto digest = sidekiqDigestOf(key)) return Span{0, digest->size()};
    for (std::string_view p :
         {"activejob_uniqueness:", "redlock-", "redlock:", "qo_", "mutex:", "semaphore:"})
        if (key.starts_with(p)) return after(p.size());
    return std::nullopt;
}

}  // namespace lockscope::inspect::formats
