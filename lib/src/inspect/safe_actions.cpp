#include "lockscope/inspect/safe_actions.h"

#include "lockscope/errors.h"
#include "lockscope/script.h"
#include "lockscope/text_format.h"

namespace lockscope::inspect {
namespace {

// KEYS[1] = key. ARGV[1] = "del" | "pexpire", ARGV[2] = ttl ms, ARGV[3] = "string" | "hash",
// ARGV[4] = the token seen, or ARGV[4..] = field, value pairs of the hash seen.
// Returns 1 when done, 0 when the holder changed, -1 when the key does not exist.
const Script& compareAndActScript() {
    static const Script script(R"lua(
local t = redis.call('TYPE', KEYS[1]).ok
if t == 'none' then return -1 end
local same = false
if ARGV[3] == 'string' then
  same = t == 'string' and redis.call('GET', KEYS[1]) == ARGV[4]
elseif t == 'hash' and redis.call('HLEN', KEYS[1]) == (#ARGV - 3) / 2 then
  same = true
  for i = 4, #ARGV, 2 do
    if redis.call('HGET', KEYS[1], ARGV[i]) ~= ARGV[i + 1] then
      same = false
      break
    end
  end
end
if not same then return 0 end
if ARGV[1] == 'del' then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
)lua");
    return script;
}

AuditEntry entryFor(const Connection& c, std::string_view action, std::string_view key,
                    const Holder* seen) {
    AuditEntry e;
    e.instance = c.endpoint().display();
    e.key = std::string(key);
    e.action = std::string(action);
    if (seen) {
        if (seen->fields.empty()) e.tokenSeen = seen->token;
        e.fieldsSeen = seen->fields;
    }
    return e;
}

}  // namespace

const char* toString(ActionOutcome o) {
    switch (o) {
        case ActionOutcome::Done:
            return "done";
        case ActionOutcome::NotFound:
            return "not-found";
        case ActionOutcome::TokenChanged:
            return "token-changed";
        case ActionOutcome::Refused:
            return "refused";
        case ActionOutcome::Denied:
            return "denied";
    }
    return "error";
}

Holder Holder::of(const LockRecord& r) {
    return Holder{r.token, r.fields, r.truncated};
}

SafeActions::SafeActions(Connection& connection, AuditLog* audit)
    : connection_(connection), audit_(audit) {}

ActionResult SafeActions::finish(AuditEntry entry, ActionResult result) {
    entry.result = toString(result.outcome);
    entry.detail = result.message;
    if (audit_) audit_->append(entry);
    return result;
}

ActionResult SafeActions::release(std::string_view key, const Holder& seen) {
    return compareAndAct("release", key, seen, std::chrono::milliseconds(0));
}

ActionResult SafeActions::expire(std::string_view key, const Holder& seen,
                                 std::chrono::milliseconds ttl) {
    return compareAndAct("expire", key, seen, ttl);
}

std::string SafeActions::describeCurrent(std::string_view key) {
    // Best effort, for the message only: the decision was made inside the script.
    try {
        Reply type = connection_.command({"TYPE", key});
        if (type.text() == "string")
            return "it now holds " + quoted(connection_.command({"GET", key}).text(), 48);
        if (type.text() == "hash") {
            Reply all = connection_.command({"HGETALL", key});
            std::string out = "its fields are now {";
            for (std::size_t i = 0; i + 1 < all.size() && i < 16; i += 2)
                out += (i ? ", " : "") + quoted(all[i].text(), 48) + ": " +
                       quoted(all[i + 1].text(), 16);
            return out + (all.size() > 16 ? ", …}" : "}");
        }
        return "it is now a " + std::string(type.text());
    } catch (const Error&) {
        return "someone else holds it now";
    }
}

ActionResult SafeActions::compareAndAct(std::string_view action, std::string_view key,
                                        const Holder& seen, std::chrono::milliseconds ttl) {
    AuditEntry entry = entryFor(connection_, action, key, &seen);
    const std::string what = action == "release" ? "release" : "set a TTL on";
    if (action == "expire") entry.ttlMs = ttl.count();
    auto refuse = [&](ActionOutcome o, std::string message) {
        return finish(entry, {o, std::move(message)});
    };
    if (key.empty()) return refuse(ActionOutcome::Refused, "refused: the key is empty");
    if (connection_.isReadOnly())
        return refuse(ActionOutcome::Refused,
                      "refused to " + what + " " + quoted(key, 80) + ": the connection to " +
                          connection_.endpoint().display() + " is read-only, so nothing was sent");
    if (seen.truncated)
        return refuse(
            ActionOutcome::Refused,
            "refused to " + what + " " + quoted(key, 80) +
                ": its value was too large to be read whole, so LockScope cannot check the holder");
    if (action == "expire" && (ttl.count() < 1 || ttl.count() > 365LL * 24 * 3600 * 1000))
        return refuse(ActionOutcome::Refused, "refused: the TTL must be 1 ms to 365 days");

    std::vector<std::string> args{action == "release" ? "del" : "pexpire",
                                  std::to_string(ttl.count()),
                                  seen.fields.empty() ? "string" : "hash"};
    if (seen.fields.empty()) args.push_back(seen.token);
    for (const auto& f : seen.fields) args.push_back(f.field), args.push_back(f.value);
    std::vector<std::string_view> argv(args.begin(), args.end());
    std::string_view keys[] = {key};
    std::int64_t result = 0;
    try {
        result = connection_.eval(compareAndActScript(), keys, argv).integer();
    } catch (const PermissionError& e) {
        return refuse(ActionOutcome::Denied, std::string("denied: ") + e.what());
    } catch (const ReadOnlyError& e) {
        return refuse(ActionOutcome::Refused, e.what());
    } catch (const Error& e) {
        entry.result = "error";
        entry.detail = e.what();
        if (audit_) audit_->append(entry);
        throw;
    }
    if (result == -1)
        return refuse(ActionOutcome::NotFound, quoted(key, 80) + " does not exist (any more)");
    if (result == 0)
        return refuse(ActionOutcome::TokenChanged,
                      "the lock " + quoted(key, 80) +
                          " changed hands, so nothing was changed: " + describeCurrent(key));
    return finish(entry, {ActionOutcome::Done, action == "release"
                                                   ? "released " + quoted(key, 80)
                                                   : "set the TTL of " + quoted(key, 80) + " to " +
                                                         std::to_string(ttl.count()) + " ms"});
}

ActionResult SafeActions::forceDelete(std::string_view key, bool confirmed) {
    AuditEntry entry = entryFor(connection_, "force-delete", key, nullptr);
    auto done = [&](ActionOutcome o, std::string message) {
        return finish(entry, {o, std::move(message)});
    };
    if (key.empty()) return done(ActionOutcome::Refused, "refused: the key is empty");
    if (!confirmed)
        return done(ActionOutcome::Refused,
                    "refused to delete " + quoted(key, 80) +
                        " unconditionally: confirm it explicitly (--force); a safe release "
                        "checks the holder instead");
    if (connection_.isReadOnly())
        return done(ActionOutcome::Refused,
                    "refused to delete " + quoted(key, 80) + ": the connection to " +
                        connection_.endpoint().display() + " is read-only, so nothing was sent");
    try {
        // What was there, for the audit trail (best effort; the delete does not depend on it).
        try {
            Reply v = connection_.command({"TYPE", key});
            if (v.text() == "string")
                entry.tokenSeen = std::string(connection_.command({"GET", key}).text());
        } catch (const ReplyError&) {
        }
        std::int64_t n = connection_.command({"DEL", key}).integer();
        if (n == 0)
            return done(ActionOutcome::NotFound, quoted(key, 80) + " does not exist (any more)");
        return done(ActionOutcome::Done, "deleted " + quoted(key, 80) + " unconditionally");
    } catch (const PermissionError& e) {
        return done(ActionOutcome::Denied, std::string("denied: ") + e.what());
    } catch (const Error& e) {
        entry.result = "error";
        entry.detail = e.what();
        if (audit_) audit_->append(entry);
        throw;
    }
}

}  // namespace lockscope::inspect
