#pragma once
// What only a set of keys shows, completed on a watch's updates: a Redisson fenced lock's
// fence lives in its own key (redisson_lock_token:{name}), and lib's attachRedissonFences
// copies it onto the lock's record. An update carries only the keys that changed, so the
// lock and its token key may come in different updates (or a rescan's batches): this finds
// the other half in the watch's table by the name Redisson gives it (lib's redissonChannel,
// which is Redisson's prefixName), so the lock row shows its fence. O(changed · log keys).

#include <optional>
#include <vector>

#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/lock_table.h"

namespace lockscope::ui {

// Sets the fence of the changed Redisson locks whose token key is known, and appends the
// locks whose token changed (their fence did) when they are not in `changed` already.
void attachRedissonFences(std::vector<inspect::LockRecord>& changed,
                          const inspect::LockTable& table);

// Spring Integration's RedisLockRegistry writes one client UUID into every lock of a registry
// instance: lib's recogniseSpringRegistries tells them from other UUID locks by two keys of
// one registry ("<registryKey>:<lockKey>") sharing the UUID. An update carries only the keys
// that changed, so the other keys of the registry are looked up in the watch's table (keys
// are sorted: one range per registry, at most kSpringSiblingsRead keys read). The sibling
// that made the pair is appended when it is the only one, so its row is relabelled too.
void recogniseSpringLocks(std::vector<inspect::LockRecord>& changed,
                          const inspect::LockTable& table);

// Both of the above, in the order the rows need them.
void completeFromTable(std::vector<inspect::LockRecord>& changed, const inspect::LockTable& table);

// A sidekiq-unique-jobs lock is one digest over several keys; lib releases it through the
// digest's LOCKED hash (the jobs that hold it). Given any key of the digest and the records
// of its resource (the digest), returns that hash on the same instance (lib's
// groupSidekiqDigests); nullopt when it was not seen.
std::optional<inspect::LockRecord> sidekiqDigestLock(
    const inspect::LockRecord& seen, const std::vector<inspect::LockRecord>& sameResource);

}  // namespace lockscope::ui
