#include "lockscope/inspect/library_release.h"

#include <tuple>

#include "inspect/formats/library_shapes.h"
#include "inspect/formats/sidekiq_release.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/formats/lock_families.h"
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

// Named fields: AuditEntry grows (intent/result pairs) and positional braces would shift.
AuditEntry releaseEntry(const Connection& c, std::string_view key) {
    AuditEntry e;
    e.instance = c.endpoint().display();
    e.key = std::string(key);
    e.action = "release";
    return e;
}

// What a job queue does once its job's lock is gone (BullMQ worker.js moveStalledJobsToWait,
// Bull queue.js moveUnlockedJobsToWait): the job is never moved by LockScope itself.
std::string afterJobLockRelease(const LockRecord& seen) {
    const char* library = seen.kind == LockKind::BullMQ ? "BullMQ" : "Bull";
    return std::string("; only the lock was deleted, the job was not touched: ") + library +
           "'s stalled-job check (every 30 s by default) will find the job active without a "
           "lock and move it back to wait, or to failed once it has stalled more than "
           "maxStalledCount times (1 by default)";
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
        case LockKind::BullMQ:
        case LockKind::Bull:
        case LockKind::SymfonyLock:
        case LockKind::RedisSemaphore:
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

LibraryRelease::LibraryRelease(Connection& connection, AuditLog* audit, KeyRoute route)
    : connection_(connection), audit_(audit), route_(std::move(route)) {}

std::pair<std::int64_t, std::int64_t> LibraryRelease::evalOn(std::string_view routeKey,
                                                             const Script& script,
                                                             const std::vector<std::string>& keys,
                                                             const std::vector<std::string>& args) {
    std::vector<std::string_view> k(keys.begin(), keys.end()), a(args.begin(), args.end());
    std::pair<std::int64_t, std::int64_t> answer{0, 0};
    auto act = [&](Connection& c) {
        Reply r = c.eval(script, k, a);
        answer = {r[0].integer(), r[1].integer()};
    };
    // A key of a migrating slot already on the importing node: ASKING allows one command
    // there, so the script is loaded first (an EVALSHA answered NOSCRIPT would spend it).
    auto load = [&](Connection& c) { c.command({"SCRIPT", "LOAD", script.source()}); };
    if (route_)
        route_(routeKey, act, load);
    else
        act(connection_);
    return answer;
}

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

ActionResult LibraryRelease::run(AuditEntry& entry, std::string_view key, const Send& send,
                                 const Describe& describe) {
    std::int64_t status = 0, woken = 0;
    // Intent first, fsync'd: when it cannot be written, nothing is sent (as SafeActions).
    entry.id = AuditLog::newId();
    if (audit_) {
        entry.phase = "intent";
        try {
            audit_->append(entry);
        } catch (const Error& e) {
            throw StorageError(std::string(e.what()) + "; nothing was sent, so nothing changed");
        }
        entry.phase = "result";
    }
    try {
        std::tie(status, woken) = send();
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
    return finish(entry, {ActionOutcome::Done, describe(woken)});
}

ActionResult LibraryRelease::releaseRedisson(std::string_view key,
                                             const std::vector<HashField>& fieldsSeen,
                                             bool readWrite) {
    AuditEntry entry = releaseEntry(connection_, key);
    entry.fieldsSeen = fieldsSeen;
    if (auto refused = refuseUnsafe(entry, key, fieldsSeen.empty()); !refused.ok()) return refused;
    // LockPubSub: UNLOCK_MESSAGE 0 wakes one waiter, READ_UNLOCK_MESSAGE 1 wakes them all (what
    // a read/write lock's waiters need when every holder is gone at once).
    std::string channel =
        redissonChannel(readWrite ? "redisson_rwlock" : "redisson_lock__channel", key);
    std::vector<std::string> keys{std::string(key), channel,
                                  redissonChannel("redisson_lock_queue", key)};
    std::vector<std::string> args{readWrite ? "1" : "0"};
    for (const auto& f : fieldsSeen) args.push_back(f.field), args.push_back(f.value);
    return run(
        entry, key, [&] { return evalOn(key, redissonScript(), keys, args); },
        [&](std::int64_t woken) {
            return "released " + quoted(key, 80) + " and published the unlock on " + channel +
                   " (" + plural(woken, "subscriber") + ")";
        });
}

ActionResult LibraryRelease::releaseSidekiqDigest(std::string_view digest,
                                                  const std::vector<std::string>& jobsSeen) {
    std::string d(digest);
    AuditEntry entry = releaseEntry(connection_, d + ":LOCKED");
    for (const auto& j : jobsSeen) entry.fieldsSeen.push_back({j, ""});
    if (auto refused = refuseUnsafe(entry, digest, jobsSeen.empty()); !refused.ok()) return refused;
    // Through a route the keys may live on a cluster: one call per hash slot.
    const auto plan = formats::planSidekiqRelease(d, static_cast<bool>(route_));
    std::string leftBehind;
    auto send = [&]() -> std::pair<std::int64_t, std::int64_t> {
        auto answer = evalOn(plan[0].keys[0], formats::sidekiqReleaseScript(), plan[0].keys,
                             formats::sidekiqReleaseArgs(plan[0], d, jobsSeen));
        if (answer.first != 1) return answer;
        // Released: LOCKED is gone. The other slots' keys are tidied; one that cannot be
        // reached now is named, not a reason to report the release as failed.
        for (std::size_t i = 1; i < plan.size(); ++i) {
            try {
                evalOn(plan[i].keys[0], formats::sidekiqReleaseScript(), plan[i].keys,
                       formats::sidekiqReleaseArgs(plan[i], d, jobsSeen));
            } catch (const Error& e) {
                for (const auto& key : plan[i].keys) leftBehind += " " + quoted(key, 80);
                leftBehind += " (" + std::string(e.what()) + ")";
            }
        }
        return answer;
    };
    return run(entry, d + ":LOCKED", send, [&](std::int64_t) {
        std::string message = "released " + quoted(d + ":LOCKED", 80) +
                              " with all its keys, and left the wake-up sentinel in " + d +
                              ":QUEUED";
        if (plan.size() > 1) message += " (" + std::to_string(plan.size()) + " hash slots)";
        if (!leftBehind.empty()) message += "; could not remove" + leftBehind;
        return message;
    });
}

ActionResult LibraryRelease::releaseSpring(std::string_view key, std::string_view clientIdSeen,
                                           std::string_view registryKey) {
    AuditEntry entry = releaseEntry(connection_, key);
    entry.tokenSeen = std::string(clientIdSeen);
    if (auto refused = refuseUnsafe(entry, key, clientIdSeen.empty()); !refused.ok())
        return refused;
    std::string channel = std::string(registryKey) + "-channel";
    return run(
        entry, key,
        [&] {
            return evalOn(key, springScript(), {std::string(key)},
                          {std::string(clientIdSeen), channel});
        },
        [&](std::int64_t woken) {
            return "released " + quoted(key, 80) + " and published the unlock on " + channel +
                   " (" + plural(woken, "subscriber") + ")";
        });
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
        case LockKind::BullMQ:
        case LockKind::Bull: {
            // The libraries release a job lock by deleting it when the token matches (their
            // releaseLock / moveToFinished scripts): SafeActions' compare-and-delete.
            auto result = SafeActions(connection_, audit_).release(seen.key, Holder::of(seen));
            if (result.outcome == ActionOutcome::Done) result.message += afterJobLockRelease(seen);
            return result;
        }
        case LockKind::SymfonyLock:
        case LockKind::RedisSemaphore:
            if (seen.type != ValueType::ZSet) break;  // redis-semaphore's Mutex: a string
            return releaseSetMember(seen.key, memberToRelease(seen), seen.kind);
        default:
            break;
    }
    return SafeActions(connection_, audit_).release(seen.key, Holder::of(seen));
}

}  // namespace lockscope::inspect
