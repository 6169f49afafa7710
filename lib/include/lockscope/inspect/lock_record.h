#pragma once
// One lock as LockScope saw it: a compact value type the scanner and the watcher produce
// and a view copies to its own thread. The PTTL comes with the steady-clock instant it was
// observed, so a view counts down smoothly between polls (remainingAt()).

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lockscope/inline_string.h"
#include "lockscope/inspect/hash_fields.h"

namespace lockscope::inspect {

using SteadyClock = std::chrono::steady_clock;

struct HolderVerdict;  // holder_verdict.h

// The Redis type of the key (TYPE).
enum class ValueType : std::uint8_t { String, Hash, List, ZSet, Set, Stream, Other };

// Which client library (or mistake) wrote the lock, judged from the key and value shape.
enum class LockKind : std::uint8_t {
    Guide,                // this guide's lock:{name} with a fence:{name} counter (LockScope's own)
    RedisPy,              // redis-py Lock: uuid1().hex, 32 hex with version nibble 1
    NodeRedlock,          // node-redlock: 32 hex from 16 random bytes
    Redsync,              // Go redsync: base64 of 16 bytes (24 chars ending "==")
    RedisPlusPlus,        // redis-plus-plus RedLock: 20 alphanumerics
    Uuid,                 // a dashed UUID from some other client
    RedissonLock,         // Redisson RLock: hash <uuid>:<threadId> -> reentrancy count
    RedissonFairQueue,    // redisson_lock_queue:{name} (list of waiting threads)
    RedissonFairTimeout,  // redisson_lock_timeout:{name} (zset of wait deadlines)
    RedissonFenceToken,   // redisson_lock_token:{name} (fenced lock counter)
    FixedValue,           // the broken fixed value "1": nobody can tell holders apart
    Unknown,              // a string or hash we cannot attribute
    NotALock,             // a list, set, zset or stream under the pattern that is no lock
    // Job frameworks and the other lock libraries (DESIGN.md, "beyond the first six").
    ShedLock,             // job-lock:<env>:<name> = ADDED:<iso-time>@<host>[:<uuid>]
    SpringIntegration,    // RedisLockRegistry <registryKey>:<lockKey> = the registry's UUID
    Laravel,              // [prefix]laravel_unique_job:... / laravel-queue-overlap:...
    SidekiqUniqueJobs,    // uniquejobs:<digest>[:QUEUED|:PRIMED|:LOCKED|:INFO], v9 <digest>:LOCKED
    RedlockNet,           // RedLock.net redlock-<resource> = a GUID
    Pottery,              // pottery Redlock redlock:<key> = uuid4 with dashes
    CeleryOnce,           // celery-once qo_<task>_<k>-<v>...
    ActiveJobUniqueness,  // activejob_uniqueness:<job>:<digest>[:runtime]
    RedissonReadWriteLock,  // Redisson RReadWriteLock: hash with mode = read/write
    RedissonRwTimeout,      // {name}:<uuid>:<threadId>:rwlock_timeout:<n> (a read holder's lease)
    // Job queues (DESIGN.md, "Stage 3").
    BullMQ,          // <prefix>:<queue>:<jobId>:lock = "<worker uuid>:<n>" (BullMQ Worker)
    Bull,            // <prefix>:<queue>:<jobId>:lock = the queue's uuid4 token (Bull)
    RedisSemaphore,  // redis-semaphore: mutex:<key> = a uuid4 id, semaphore:<key> zset of ids
    SymfonyLock,     // Symfony Lock RedisStore: <resource> zset of tokens (+ __write__) by expiry
};

const char* toString(ValueType type);
const char* toString(LockKind kind);
// A short explanation of the kind for tooltips and --help.
const char* describe(LockKind kind);

// The server a record comes from (Endpoint::display()): one string per server for the
// life of the process, so a record keeps 8 bytes where a shared_ptr took 16 (issue 37 item
// 7). Made from the shared name every scanner and view already has (interned once each).
class InstanceName {
  public:
    InstanceName() = default;
    // Implicit: assigned from shared names everywhere a record is made.
    InstanceName(const std::shared_ptr<const std::string>& name);  // NOLINT
    explicit operator bool() const { return name_ != nullptr; }
    const std::string& operator*() const { return *name_; }
    const std::string* operator->() const { return name_; }
    const std::string* get() const { return name_; }
    bool operator==(const InstanceName&) const = default;

  private:
    const std::string* name_ = nullptr;
};

// The fence:{name} counter, when there is one: std::optional<std::int64_t>'s reads in 9
// bytes that pack among the record's small fields (a std::optional takes 16, aligned).
// Every int64 is a fence (INT64_MIN too): presence is a flag of its own, not a value.
class [[gnu::packed]] OptionalFence {
  public:
    OptionalFence() = default;
    OptionalFence(std::nullopt_t) {}                                  // NOLINT: as optional's
    OptionalFence(std::int64_t value) : value_(value), has_(true) {}  // NOLINT: as optional's
    OptionalFence(std::optional<std::int64_t> value)                  // NOLINT: as optional's
        : value_(value.value_or(0)), has_(value.has_value()) {}
    operator std::optional<std::int64_t>() const {  // NOLINT: as optional's
        return has_ ? std::optional<std::int64_t>(value_) : std::nullopt;
    }
    explicit operator bool() const { return has_; }
    bool has_value() const { return has_; }
    std::int64_t operator*() const { return value_; }
    std::int64_t value_or(std::int64_t otherwise) const { return has_ ? value_ : otherwise; }
    friend bool operator==(const OptionalFence& a, const OptionalFence& b) {
        return a.has_ == b.has_ && (!a.has_ || a.value_ == b.value_);
    }

  private:
    std::int64_t value_ = 0;
    bool has_ = false;
};

// A record's key and token, kept in the record when short (inline_string.h): a key of up
// to 27 characters, a token of up to 43 (a UUID, a BullMQ worker's "<uuid>:<n>").
using RecordKey = InlineString<32>;
using RecordToken = InlineString<48>;

struct LockRecord {
    // The server the key lives on (Endpoint::display()), shared by every record of a scan.
    InstanceName instance;
    RecordKey key;
    // String value (the holder token), cut to ScanOptions::maxValueBytes; empty otherwise.
    RecordToken token;
    // Hash fields and values (Redisson: "<uuid>:<threadId>" -> count), capped in number; for a
    // sorted set its members and their scores (Symfony Lock: token -> expiry in ms).
    HashFields fields;

    std::int64_t pttlMs = -1;            // -1: no TTL
    SteadyClock::time_point observedAt;  // when the read of the PTTL above was sent
    // Kept by LockTable for the age estimate (lock_age.h); -1 when not known.
    std::int64_t firstPttlMs = -1;       // the PTTL when the current holder was first seen
    std::int64_t leasePttlMs = -1;       // the largest PTTL this key was seen with, any holder
    SteadyClock::time_point firstSeen;   // first observation of this key by this watcher
    SteadyClock::time_point lastChange;  // last time the holder (token/fields) changed
    std::uint32_t valueBytes = 0;        // full size of the string value, or hash length
    std::uint32_t handoffs = 0;          // the token changed between observations
    std::uint32_t renewals = 0;          // PTTL went up with the same token
    std::uint32_t findings = 0;          // bit set of doctor RuleId (see doctor.h)
    std::uint16_t resourceOffset = 0;    // resource() is key.substr(offset, length)
    std::uint16_t resourceLength = 0;
    ValueType type = ValueType::String;
    LockKind kind = LockKind::Unknown;
    bool truncated = false;  // token or fields were cut: a safe release must refuse
    std::int16_t slot = -1;  // the Redis Cluster hash slot; -1 when not read from a cluster
    // A watcher saw this key appear (it was not there at its first scan): its age is about
    // the time since it was first seen (lock_age.h).
    bool appearedWhileWatching = false;
    // How long the read took, from its sending to its reply (ms, saturated): the server
    // answered the PTTL somewhere in it, so a comparison of two readings allows for it.
    std::uint16_t readSpanMs = 0;
    OptionalFence fence;  // the fence:{name} counter, when there is one
    // Is the holder alive? Set by LivenessReader (liveness_reader.h); null when not judged.
    std::shared_ptr<const HolderVerdict> liveness;

    const std::string& instanceName() const;
    // The resource the lock protects: the hash tag ({...}) when there is one.
    std::string_view resource() const {
        return std::string_view(key).substr(resourceOffset, resourceLength);
    }
    bool hasTtl() const { return pttlMs >= 0; }
    // The PTTL counted down from observedAt to now (never below 0); -1 without TTL.
    std::int64_t remainingAt(SteadyClock::time_point now) const;
    // The holder, comparable across observations: the token, or the hash fields; a sorted
    // set's members without their scores (a renewal rewrites a holder's score).
    bool sameHolder(const LockRecord& other) const {
        if (type == ValueType::ZSet) return token == other.token && sameMembers(other);
        return token == other.token && fields == other.fields;
    }
    bool sameMembers(const LockRecord& other) const;
};

// LockRecord::readSpanMs of a read sent at `sent` and answered by `replied`.
inline std::uint16_t readSpanMs(SteadyClock::time_point sent, SteadyClock::time_point replied) {
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(replied - sent).count();
    return static_cast<std::uint16_t>(std::clamp<std::int64_t>(ms, 0, 0xffff));
}

// A record a watcher's table and a view share (LockTable::share): immutable once shared.
using SharedLockRecord = std::shared_ptr<const LockRecord>;

}  // namespace lockscope::inspect
