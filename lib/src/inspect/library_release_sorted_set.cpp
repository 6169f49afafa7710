// Releasing one holder of a sorted-set lock the way its library does: Symfony Lock's
// RedisStore::delete() and redis-semaphore's releaseSemaphore(). Both only ZREM the holder's
// member; the script checks first that it is still a member (a holder whose lease lapsed and
// whose member the next acquire dropped is not someone else's to remove).
#include <string>

#include "inspect/formats/sorted_set_shapes.h"
#include "lockscope/inspect/library_release.h"
#include "lockscope/text_format.h"

namespace lockscope::inspect {
namespace {

// KEYS: the lock. ARGV: the member seen, "1" for Symfony (drop "__write__" with it and keep
// the key's TTL at the latest expiry left). Returns {status, members left}.
const Script& releaseMemberScript() {
    static const Script script(R"lua(
local t = redis.call('TYPE', KEYS[1]).ok
if t == 'none' then return {-1, 0} end
if t ~= 'zset' or not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {0, 0} end
redis.call('ZREM', KEYS[1], ARGV[1])
if ARGV[2] == '1' then
  redis.call('ZREM', KEYS[1], '__write__')
  local latest = redis.call('ZREVRANGE', KEYS[1], 0, 0, 'WITHSCORES')[2]
  if latest then redis.call('PEXPIREAT', KEYS[1], latest) end
end
return {1, redis.call('ZCARD', KEYS[1])}
)lua");
    return script;
}

bool isHolderMember(const HashField& m) {
    return m.field != formats::kSymfonyWriteMember;
}

}  // namespace

std::string LibraryRelease::memberToRelease(const LockRecord& seen) {
    if (!seen.token.empty()) return seen.token;
    const HashField* only = nullptr;
    for (const auto& m : seen.fields) {
        if (!isHolderMember(m)) continue;
        if (only) return {};  // several holders: the operator must say which
        only = &m;
    }
    return only && !seen.truncated ? only->field : std::string();
}

ActionResult LibraryRelease::releaseSetMember(std::string_view key, std::string_view member,
                                              LockKind kind) {
    AuditEntry entry;
    entry.instance = connection_.endpoint().display();
    entry.key = std::string(key);
    entry.action = "release";
    entry.tokenSeen = std::string(member);
    if (member.empty())
        return finish(entry, {ActionOutcome::Refused,
                              "refused to release " + quoted(key, 80) +
                                  ": it has several holders (or more than were read); name the "
                                  "one to release (its member, e.g. --token)"});
    if (member == formats::kSymfonyWriteMember)
        return finish(entry, {ActionOutcome::Refused,
                              "refused: __write__ marks the write holder, it is none itself; "
                              "name the holder's token"});
    if (auto refused = refuseUnsafe(entry, key, false); !refused.ok()) return refused;
    const bool symfony = kind == LockKind::SymfonyLock;
    const std::string k(key), m(member);
    return run(
        entry, key,
        [&] {
            return evalOn(key, releaseMemberScript(), {k}, {m, symfony ? "1" : "0"});
        },
        [&](std::int64_t left) {
            std::string message =
                "released holder " + quoted(member, 60) + " of " + quoted(key, 80) + " as " +
                (symfony ? "Symfony Lock's RedisStore" : "redis-semaphore") + " does (ZREM)";
            return message + (left == 0 ? "; no holder is left, so the key is gone"
                                        : "; " + std::to_string(left) + " member" +
                                              (left == 1 ? "" : "s") + " left");
        });
}

}  // namespace lockscope::inspect
