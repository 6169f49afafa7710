#include "lockscope/inspect/lock_record.h"

#include <algorithm>
#include <mutex>
#include <unordered_set>

namespace lockscope::inspect {

const char* toString(ValueType type) {
    switch (type) {
        case ValueType::String:
            return "string";
        case ValueType::Hash:
            return "hash";
        case ValueType::List:
            return "list";
        case ValueType::ZSet:
            return "zset";
        case ValueType::Set:
            return "set";
        case ValueType::Stream:
            return "stream";
        case ValueType::Other:
            return "other";
    }
    return "other";
}

const char* toString(LockKind kind) {
    switch (kind) {
        case LockKind::Guide:
            return "guide";
        case LockKind::RedisPy:
            return "redis-py";
        case LockKind::NodeRedlock:
            return "node-redlock";
        case LockKind::Redsync:
            return "redsync";
        case LockKind::RedisPlusPlus:
            return "redis-plus-plus";
        case LockKind::Uuid:
            return "uuid";
        case LockKind::RedissonLock:
            return "redisson";
        case LockKind::RedissonFairQueue:
            return "redisson-fair-queue";
        case LockKind::RedissonFairTimeout:
            return "redisson-fair-timeout";
        case LockKind::RedissonFenceToken:
            return "redisson-fence-token";
        case LockKind::FixedValue:
            return "fixed-value";
        case LockKind::Unknown:
            return "unknown";
        case LockKind::NotALock:
            return "not-a-lock";
        case LockKind::ShedLock:
            return "shedlock";
        case LockKind::SpringIntegration:
            return "spring-integration";
        case LockKind::Laravel:
            return "laravel";
        case LockKind::SidekiqUniqueJobs:
            return "sidekiq-unique-jobs";
        case LockKind::RedlockNet:
            return "redlock-net";
        case LockKind::Pottery:
            return "pottery";
        case LockKind::CeleryOnce:
            return "celery-once";
        case LockKind::ActiveJobUniqueness:
            return "activejob-uniqueness";
        case LockKind::RedissonReadWriteLock:
            return "redisson-rwlock";
        case LockKind::RedissonRwTimeout:
            return "redisson-rwlock-timeout";
        case LockKind::BullMQ:
            return "bullmq";
        case LockKind::Bull:
            return "bull";
        case LockKind::RedisSemaphore:
            return "redis-semaphore";
        case LockKind::SymfonyLock:
            return "symfony-lock";
    }
    return "unknown";
}

const char* describe(LockKind kind) {
    switch (kind) {
        case LockKind::Guide:
            return "lock:{name} with a random token and a fence:{name} counter (the guide's lock)";
        case LockKind::RedisPy:
            return "redis-py Lock: uuid1().hex token";
        case LockKind::NodeRedlock:
            return "node-redlock: 16 random bytes as 32 hex digits";
        case LockKind::Redsync:
            return "Go redsync: 16 random bytes in base64";
        case LockKind::RedisPlusPlus:
            return "redis-plus-plus RedLock: 20 alphanumerics";
        case LockKind::Uuid:
            return "a UUID token from an unrecognised client";
        case LockKind::RedissonLock:
            return "Redisson RLock: hash of <uuid>:<threadId> to reentrancy count";
        case LockKind::RedissonFairQueue:
            return "Redisson fair lock: queue of waiting threads";
        case LockKind::RedissonFairTimeout:
            return "Redisson fair lock: wait deadlines";
        case LockKind::RedissonFenceToken:
            return "Redisson fenced lock: token counter";
        case LockKind::FixedValue:
            return "a fixed value such as \"1\": holders cannot be told apart";
        case LockKind::Unknown:
            return "a value LockScope cannot attribute to a client";
        case LockKind::NotALock:
            return "a key of another type under the pattern";
        case LockKind::ShedLock:
            return "ShedLock: ADDED:<time>@<host>; lockAtLeastFor keeps it after the job ends";
        case LockKind::SpringIntegration:
            return "Spring Integration RedisLockRegistry: the registry's client UUID, shared by "
                   "all its locks";
        case LockKind::Laravel:
            return "Laravel unique job or WithoutOverlapping lock: a random 16-character owner";
        case LockKind::SidekiqUniqueJobs:
            return "sidekiq-unique-jobs digest: LOCKED holds job id -> time";
        case LockKind::RedlockNet:
            return "RedLock.net: redlock-<resource> holding a GUID";
        case LockKind::Pottery:
            return "pottery Redlock: redlock:<key> holding a uuid4 (10 s default)";
        case LockKind::CeleryOnce:
            return "celery-once: qo_<task>_<args>, a redis-py Lock token or an expiry time";
        case LockKind::ActiveJobUniqueness:
            return "activejob-uniqueness: a redlock-rb token per job and argument digest";
        case LockKind::RedissonReadWriteLock:
            return "Redisson read/write lock: hash with mode and its holders";
        case LockKind::RedissonRwTimeout:
            return "Redisson read/write lock: a read holder's lease key";
        case LockKind::BullMQ:
            return "BullMQ job lock: <prefix>:<queue>:<jobId>:lock holding the worker's token, "
                   "renewed while the job runs (30 s default)";
        case LockKind::Bull:
            return "Bull job lock: <prefix>:<queue>:<jobId>:lock holding the queue's token, "
                   "renewed while the job runs (30 s default)";
        case LockKind::RedisSemaphore:
            return "redis-semaphore: mutex:<key> holding a random UUID, or semaphore:<key>, a "
                   "sorted set of holder ids by acquire time (10 s lock timeout by default)";
        case LockKind::SymfonyLock:
            return "Symfony Lock RedisStore: a sorted set at the resource name of the holders' "
                   "tokens by expiry, with __write__ for an exclusive lock (300 s by default)";
    }
    return "";
}

namespace {

// Every server name a record was made with, for the life of the process: a few per
// connection ever opened. Never freed, so a record (and any copy a view keeps) outlives the
// scanner or watch that named it.
const std::string* intern(const std::string& name) {
    static std::mutex mutex;
    static auto* names = new std::unordered_set<std::string>;  // nodes never move
    const std::lock_guard lock(mutex);
    return &*names->insert(name).first;
}

}  // namespace

// A record and its shared_ptr control block (16 bytes) take one 216-byte block of the
// records' pool (block_pool.h): each byte more costs a million locks a megabyte. The key and
// the token are kept in the record up to 27 and 43 characters (inline_string.h).
static_assert(sizeof(RecordKey) == 32 && sizeof(RecordToken) == 48, "a key or token grew");
static_assert(sizeof(LockRecord) <= 200, "LockRecord grew past its pool block");

InstanceName::InstanceName(const std::shared_ptr<const std::string>& name)
    : name_(name ? intern(*name) : nullptr) {}

const std::string& LockRecord::instanceName() const {
    static const std::string none;
    return instance ? *instance : none;
}

bool LockRecord::sameMembers(const LockRecord& other) const {
    return std::equal(fields.begin(), fields.end(), other.fields.begin(), other.fields.end(),
                      [](const HashField& a, const HashField& b) { return a.field == b.field; });
}

std::int64_t LockRecord::remainingAt(SteadyClock::time_point now) const {
    if (pttlMs < 0) return pttlMs;
    auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(now - observedAt).count();
    return std::max<std::int64_t>(0, pttlMs - std::max<std::int64_t>(0, elapsed));
}

}  // namespace lockscope::inspect
