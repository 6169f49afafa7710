#pragma once
// Releases a lock the way its library expects, so its waiters wake instead of sleeping out
// their timeouts. Each path is one Lua script that compares before it acts, like SafeActions,
// and every call, done or refused, is appended to the audit log:
//   Redisson RLock / fair lock   delete the hash only if its fields are the ones seen, then
//                                PUBLISH 0 on redisson_lock__channel:{name} and, for a fair
//                                lock, on the first queued thread's channel (…:{name}:<id>:<tid>)
//   Redisson read/write lock     the same on redisson_rwlock:{name}, message 1 (wake all)
//   sidekiq-unique-jobs          delete the digest's keys together (digest, PRIMED, LOCKED,
//                                INFO, its entries in uniquejobs:digests/expiring_digests) only
//                                if LOCKED still holds exactly the jobs seen, then leave the
//                                sentinel "1" in QUEUED (5 s) so a job blocked on it wakes. On a
//                                cluster, one call per hash slot (never CROSSSLOT): LOCKED's
//                                compares and comes first, QUEUED's wakes and comes last
//   Spring RedisLockRegistry     compare-and-delete, then PUBLISH the key on
//                                "<registryKey>-channel"
//   BullMQ / Bull job lock       compare-and-delete of the lock only (never the job), and the
//                                message says what the library's stalled-job check does next
//   Symfony Lock (RedisStore)    one holder's token: ZREM it (and "__write__" with it), then
//                                PEXPIREAT the key to the latest expiry left, as delete()
//                                does; only if the token is still a member
//   redis-semaphore Semaphore    one holder's identifier: ZREM, as releaseSemaphore() does,
//                                only if it is still a member (its Mutex: compare-and-delete)
//   every other kind             SafeActions::release (compare-and-delete on the value seen)
// Sources: Redisson RedissonLock/RedissonFairLock/RedissonReadLock unlockInnerAsync and
// pubsub/LockPubSub.java; sidekiq-unique-jobs lib/sidekiq_unique_jobs/lua/unlock.lua;
// spring-integration-redis RedisLockRegistry.RedisPubSubLock (UNLINK/DELETE_UNLOCK_SCRIPT);
// Symfony Component/Lock/Store/RedisStore.php delete(); redis-semaphore lib/semaphore/release.js.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/audit_log.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/safe_actions.h"
#include "lockscope/script.h"

namespace lockscope::inspect {

// Whether a kind has a release path of its own (else SafeActions' compare-and-delete).
bool hasLibraryRelease(LockKind kind);

// Redisson's prefixName(): "<prefix>:{<name>}", or "<prefix>:<name>" when name has a {tag}.
std::string redissonChannel(std::string_view prefix, std::string_view name);

class LibraryRelease {
  public:
    // Runs act on the connection that serves key: on a cluster, its slot's node (e.g.
    // ClusterRouter::onKey, which follows MOVED and ASK). beforeAsk runs on the importing
    // node before ASKING (it loads the script there, so the one command ASKING allows is the
    // script's run, not a NOSCRIPT).
    using ConnectionAct = std::function<void(Connection&)>;
    using KeyRoute = std::function<void(std::string_view key, const ConnectionAct& act,
                                        const ConnectionAct& beforeAsk)>;

    // The connection (and the audit log, which may be null) must outlive this object.
    // Without a route every key goes to the connection, which must then serve them all (a
    // plain server); with one, keys of other slots go where it sends them.
    LibraryRelease(Connection& connection, AuditLog* audit, KeyRoute route = {});

    // Dispatches on seen.kind. ActionResult::message says who was told ("woke 1 waiter").
    ActionResult release(const LockRecord& seen);

    ActionResult releaseRedisson(std::string_view key, const std::vector<HashField>& fieldsSeen,
                                 bool readWrite);
    ActionResult releaseSidekiqDigest(std::string_view digest,
                                      const std::vector<std::string>& jobsSeen);
    ActionResult releaseSpring(std::string_view key, std::string_view clientIdSeen,
                               std::string_view registryKey);
    // One holder (member) of a sorted-set lock (library_release_sorted_set.cpp); kind is
    // SymfonyLock or RedisSemaphore. The others holding it keep it.
    ActionResult releaseSetMember(std::string_view key, std::string_view member, LockKind kind);

  private:
    // The sorted-set lock's holder a release of `seen` means: the token the operator named,
    // else its only holder; empty when it holds several and none was named.
    static std::string memberToRelease(const LockRecord& seen);
    ActionResult refuseUnsafe(AuditEntry& entry, std::string_view key, bool truncated);
    ActionResult finish(AuditEntry& entry, ActionResult result);
    // Sends the release between the audit's intent and result lines. send returns the
    // script's {status, woken}: status 1 done, 0 holder changed, -1 no such lock; describe
    // words a done release from the subscribers it woke.
    using Send = std::function<std::pair<std::int64_t, std::int64_t>()>;
    using Describe = std::function<std::string(std::int64_t woken)>;
    ActionResult run(AuditEntry& entry, std::string_view key, const Send& send,
                     const Describe& describe);
    std::pair<std::int64_t, std::int64_t> evalOn(std::string_view routeKey, const Script& script,
                                                 const std::vector<std::string>& keys,
                                                 const std::vector<std::string>& args);

    Connection& connection_;
    AuditLog* audit_;
    KeyRoute route_;
};

}  // namespace lockscope::inspect
