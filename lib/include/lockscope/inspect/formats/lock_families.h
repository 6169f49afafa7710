#pragma once
// What only a set of records shows, not one key alone:
//  - Spring Integration's RedisLockRegistry stores one client UUID in every lock of a
//    registry instance: several keys "<registryKey>:<lockKey>" with the same UUID are its locks.
//  - a sidekiq-unique-jobs lock is one digest spread over several keys (QUEUED, PRIMED,
//    LOCKED, INFO): one row per digest with its jobs.
//  - a Redisson client id holding many locks is a stuck client (a watchdog that outlived
//    its work): locks counted per client id.
//  - Redisson's companions (fenced lock token, fair-lock queue and timeouts) belong to their lock.

#include <cstddef>
#include <string>
#include <vector>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

// Marks as SpringIntegration the records of kind Uuid whose token is shared by at least two
// keys with the same registry key (the part before the last ':'). Returns how many changed.
std::size_t recogniseSpringRegistries(std::vector<LockRecord>& records);

// "<registryKey>" of a Spring lock key (before the last ':'); its unlock channel is
// "<registryKey>-channel" (RedisLockRegistry.unLockChannelKey).
std::string springRegistryKey(std::string_view key);

struct SidekiqDigest {
    std::string instance;
    std::string digest;                // uniquejobs:<md5> (or its :RUN runtime digest)
    std::vector<std::size_t> records;  // indices of its keys in the input
    std::vector<std::string> jobs;     // job ids in LOCKED
    std::int64_t pttlMs = -1;          // the LOCKED hash's PTTL (-1: none, or no LOCKED seen)
};
std::vector<SidekiqDigest> groupSidekiqDigests(const std::vector<LockRecord>& records);

struct RedissonClientLocks {
    std::string clientId;
    std::size_t locks = 0;
};
// Most locks first; a lock held by several threads of one client counts once for it.
std::vector<RedissonClientLocks> locksPerRedissonClient(const std::vector<LockRecord>& records);

// A key that belongs to another key's lock rather than being a lock of its own: a sidekiq
// digest's QUEUED, PRIMED, INFO and digest keys (its lock is the LOCKED hash), Redisson's
// fair-lock queue and timeout keys and its fenced lock's token key. Each shares its lock's
// resource(), so a view ordered by resource, lock first, shows it under its lock.
bool isLockCompanion(const LockRecord& record);

// Copies each redisson_lock_token:{name} counter onto its lock's record as the fence.
void attachRedissonFences(std::vector<LockRecord>& records);

}  // namespace lockscope::inspect
