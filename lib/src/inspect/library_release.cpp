#include "lockscope/inspect/library_release.h"

#include "inspect/formats/library_shapes.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/lock_families.h"
#include "lockscope/text_format.h"

namespace lockscope::inspect {
namespace {

// Every script returns {status, woken}: status 1 done, 0 holder changed, -1 no such lock;
// woken = the subscribers PUBLISH reached (0 for sidekiq, whose waiters block on a list).

// KEYS: hash, channel, fair-lock queue. ARGV[1]: the unlock message; then field, value pairs.
const Script& redissonScript() {
    static const Script script(R"lua(
local t = redis.call('TYPE', KEYS[1]).ok
if t == 'none' then return {-1, 0} end
if t ~= 'hash' or redis.call('HLEN', KEYS[1]) ~= (#ARGV - 1) / 2 then return {0, 0} end
for i = 2, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then return {0, 0} end
end
redis.call('DEL', KEYS[1])
local woken = redis.call('PUBLISH', KEYS[2], ARGV[1])
local first = redis.call('LINDEX', KEYS[3], 0)
if first then woken = woken + redis.call('PUBLISH', KEYS[2] .. ':' .. first, ARGV[1]) end
return {1, woken}
)lua");
    return script;
}

// KEYS: digest, QUEUED, PRIMED, LOCKED, INFO, digests, expiring_digests.
// ARGV[1]: the digest; ARGV[2..]: the job ids seen in LOCKED.
const Script& sidekiqScript() {
    static const Script script(R"lua(
if redis.call('EXISTS', KEYS[4]) == 0 then return {-1, 0} end
if redis.call('TYPE', KEYS[4]).ok ~= 'hash' or redis.call('HLEN', KEYS[4]) ~= #ARGV - 1 then
  return {0, 0}
end
for i = 2, #ARGV do
  if redis.call('HEXISTS', KEYS[4], ARGV[i]) == 0 then return {0, 0} end
end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
redis.call('ZREM', KEYS[6], ARGV[1])
redis.call('ZREM', KEYS[7], ARGV[1])
redis.call('LPUSH', KEYS[2], '1')
redis.call('PEXPIRE', KEYS[2], 5000)
return {1, 0}
)lua");
    return script;
}

// KEYS: the lock. ARGV: the client id seen, the registry's unlock channel.
const Script& springScript() {
    static const Script script(R"lua(
local v = redis.call('GET', KEYS[1])
if not v then
  if redis.call('EXISTS', KEYS[1]) == 1 then return {0, 0} end
  return {-1, 0}
end
if v ~= ARGV[1] then return {0, 0} end
redis.call('DEL', KEYS[1])
return {1, redis.call('PUBLISH', ARGV[2], KEYS[1])}
)lua");
    return script;
}

std::string plural(std::int64_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

}  // namespace

bool hasLibraryRelease(LockKind kind) {
    switch (kind) {
        case LockKind::RedissonLock:
        case LockKind::RedissonReadWriteLock:
        case LockKind::SidekiqUniqueJobs:
        case LockKind::SpringIntegration:
            return true;
        default:
            return false;
    }
}

std::string redissonChannel(std::string_view prefix, std::string_view name) {
    if (name.find('{') != std::string_view::npos)
        return std::string(prefix) + ":" + std::string(name);
    return std::string(prefix) + ":{" + std::string(name) + "}";
}

LibraryRelease::LibraryRelease(Connection& connection, AuditLog* audit)
    : connection_(connection), audit_(audit) {}

ActionResult LibraryRelease::finish(AuditEntry& entry, ActionResult result) {
    entry.result = toString(result.outcome);
    entry.detail = result.message;
    if (audit_) audit_->append(entry);
    return result;
}

ActionResult LibraryRelease::refuseUnsafe(AuditEntry& entry, std::string_view key, bool truncated) {
    if (key.empty()) return finish(entry, {ActionOutcome::Refused, "refused: the key is empty"});
    if (connection_.isReadOnly())
        return finish(
            entry, {ActionOutcome::Refused,
                    "refused to release " + quoted(key, 80) + ": the connection to " +
                        connection_.endpoint().display() + " is read-only, so nothing was sent"});
    if (truncated)
        return finish(entry,
                      {ActionOutcome::Refused,
                       "refused to release " + quoted(key, 80) +
                           ": its holder was too large to be read whole, so LockScope cannot "
                           "check it"});
    return {ActionOutcome::Done, {}};
}

ActionResult LibraryRelease::run(AuditEntry& entry, std::string_view key, const Script& script,
                                 const std::vector<std::string>& keys,
                                 const std::vector<std::string>& args, std::string_view how) {
    std::vector<std::string_view> k(keys.begin(), keys.end()), a(args.begin(), args.end());
    std::int64_t status = 0, woken = 0;
    try {
        Reply r = connection_.eval(script, k, a);
        status = r[0].integer();
        woken = r[1].integer();
    } catch (const PermissionError& e) {
        return finish(entry, {ActionOutcome::Denied, std::string("denied: ") + e.what()});
    } catch (const ReadOnlyError& e) {
        return finish(entry, {ActionOutcome::Refused, e.what()});
    } catch (const Error& e) {
        entry.result = "error";
        entry.detail = e.what();
        if (audit_) audit_->append(entry);
        throw;
    }
    if (status == -1)
        return finish(entry,
                      {ActionOutcome::NotFound, quoted(key, 80) + " does not exist (any more)"});
    if (status == 0)
        return finish(entry, {ActionOutcome::TokenChanged,
                              "the lock " + quoted(key, 80) +
                                  " changed hands since it was read, so nothing was changed"});
    std::string message = "released " + quoted(key, 80) + " " + std::string(how);
    if (script.sha1() != sidekiqScript().sha1())
        message += " (" + plural(woken, "subscriber") + ")";
    return finish(entry, {ActionOutcome::Done, message});
}

ActionResult LibraryRelease::releaseRedisson(std::string_view key,
                                             const std::vector<HashField>& fieldsSeen,
                                             bool readWrite) {
    AuditEntry entry{
        connection_.endpoint().display(), std::string(key), "release", {}, fieldsSeen, {}, {}, {}};
    if (auto refused = refuseUnsafe(entry, key, fieldsSeen.empty()); !refused.ok()) return refused;
    // LockPubSub: UNLOCK_MESSAGE 0 wakes one waiter, READ_UNLOCK_MESSAGE 1 wakes them all (what
    // a read/write lock's waiters need when every holder is gone at once).
    std::string channel =
        redissonChannel(readWrite ? "redisson_rwlock" : "redisson_lock__channel", key);
    std::vector<std::string> keys{std::string(key), channel,
                                  redissonChannel("redisson_lock_queue", key)};
    std::vector<std::string> args{readWrite ? "1" : "0"};
    for (const auto& f : fieldsSeen) args.push_back(f.field), args.push_back(f.value);
    return run(entry, key, redissonScript(), keys, args, "and published the unlock on " + channel);
}

ActionResult LibraryRelease::releaseSidekiqDigest(std::string_view digest,
                                                  const std::vector<std::string>& jobsSeen) {
    std::string d(digest);
    AuditEntry entry{
        connection_.endpoint().display(), d + ":LOCKED", "release", {}, {}, {}, {}, {}};
    for (const auto& j : jobsSeen) entry.fieldsSeen.push_back({j, ""});
    if (auto refused = refuseUnsafe(entry, digest, jobsSeen.empty()); !refused.ok()) return refused;
    std::vector<std::string> keys{d,
                                  d + ":QUEUED",
                                  d + ":PRIMED",
                                  d + ":LOCKED",
                                  d + ":INFO",
                                  "uniquejobs:digests",
                                  "uniquejobs:expiring_digests"};
    std::vector<std::string> args{d};
    args.insert(args.end(), jobsSeen.begin(), jobsSeen.end());
    return run(entry, d + ":LOCKED", sidekiqScript(), keys, args,
               "with all its keys, and left the wake-up sentinel in " + d + ":QUEUED");
}

ActionResult LibraryRelease::releaseSpring(std::string_view key, std::string_view clientIdSeen,
                                           std::string_view registryKey) {
    AuditEntry entry{connection_.endpoint().display(),
                     std::string(key),
                     "release",
                     std::string(clientIdSeen),
                     {},
                     {},
                     {},
                     {}};
    if (auto refused = refuseUnsafe(entry, key, clientIdSeen.empty()); !refused.ok())
        return refused;
    std::string channel = std::string(registryKey) + "-channel";
    return run(entry, key, springScript(), {std::string(key)}, {std::string(clientIdSeen), channel},
               "and published the unlock on " + channel);
}

ActionResult LibraryRelease::release(const LockRecord& seen) {
    switch (seen.kind) {
        case LockKind::RedissonLock:
        case LockKind::RedissonReadWriteLock:
            if (seen.truncated) break;  // SafeActions refuses it, audited
            return releaseRedisson(seen.key, seen.fields,
                                   seen.kind == LockKind::RedissonReadWriteLock);
        case LockKind::SidekiqUniqueJobs: {
            auto digest = formats::sidekiqDigestOf(seen.key);
            if (!digest || seen.type != ValueType::Hash || seen.truncated) break;
            std::vector<std::string> jobs;
            for (const auto& f : seen.fields) jobs.push_back(f.field);
            return releaseSidekiqDigest(*digest, jobs);
        }
        case LockKind::SpringIntegration:
            if (seen.truncated) break;
            return releaseSpring(seen.key, seen.token, springRegistryKey(seen.key));
        default:
            break;
    }
    return SafeActions(connection_, audit_).release(seen.key, Holder::of(seen));
}

}  // namespace lockscope::inspect
