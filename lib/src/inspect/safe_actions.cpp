#include "lockscope/inspect/safe_actions.h"

#include "lockscope/compare_and_act.h"
#include "lockscope/errors.h"
#include "lockscope/script.h"
#include "lockscope/text_format.h"
#include "transaction_compare.h"

namespace lockscope::inspect {
namespace {

// KEYS[1] = key. ARGV[1] = "del" | "pexpire" (seen without a TTL) | "lengthen" (seen with one),
// ARGV[2] = ttl ms, ARGV[3] = "string" | "hash",
// ARGV[4] = the token seen, or ARGV[4..] = field, value pairs of the hash seen.
// Returns 1 when done, 0 when the holder changed, -1 when the key does not exist, -2 when it
// got a TTL since it was seen without one, -3 when the new TTL would shorten the one it has.
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
local pttl = redis.call('PTTL', KEYS[1])
if ARGV[1] == 'pexpire' and pttl >= 0 then return -2 end
if pttl >= 0 and tonumber(ARGV[2]) <= pttl then return -3 end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
)lua");
    return script;
}

// A replica refuses writes with READONLY (a script's too): nothing was changed. Matched by
// the reply's code, never its wording.
bool isReadOnlyReply(const ReplyError& e) {
    return e.code() == ServerErrorCode::ReadOnly;
}

AuditEntry entryFor(const Connection& c, std::string_view action, std::string_view key,
                    const Holder* seen) {
    AuditEntry e;
    e.id = AuditLog::newId();
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

void preloadActionScripts(Connection& connection) {
    connection.command({"SCRIPT", "LOAD", compareAndActScript().source()});
}

// Audits a failure that leaves the outcome unreported by the server, then rethrows it.
[[noreturn]] void SafeActions::failed(AuditEntry entry, const Error& error) {
    entry.phase = "result";
    // MOVED / ASK: the server ran nothing; a cluster router sends it again to the key's node.
    const auto* reply = dynamic_cast<const ReplyError*>(&error);
    const bool redirected =
        reply && (reply->code() == ServerErrorCode::Moved || reply->code() == ServerErrorCode::Ask);
    entry.result = redirected ? "redirected" : "error";
    entry.detail = error.what();
    try {
        if (audit_) audit_->append(entry);
    } catch (const Error&) {
        // The operator sees the original error; it matters more than the audit line.
    }
    throw;
}

const char* toString(ActionOutcome o) {
    switch (o) {
        case ActionOutcome::Done:
            return "done";
        case ActionOutcome::NotFound:
            return "not-found";
        case ActionOutcome::TokenChanged:
            return "token-changed";
        case ActionOutcome::TtlChanged:
            return "ttl-changed";
        case ActionOutcome::Refused:
            return "refused";
        case ActionOutcome::Denied:
            return "denied";
        case ActionOutcome::Unknown:
            return "unknown";
    }
    return "error";
}

Holder Holder::of(const LockRecord& r) {
    return Holder{r.token, r.fields, r.truncated, r.hasTtl()};
}

SafeActions::SafeActions(Connection& connection, AuditLog* audit)
    : connection_(connection), audit_(audit) {}

ActionResult SafeActions::finish(AuditEntry entry, ActionResult result) {
    entry.phase = "result";
    entry.result = toString(result.outcome);
    entry.detail = result.message;
    try {
        if (audit_) audit_->append(entry);
    } catch (const Error& e) {
        result.auditProblem = e.what();
    }
    return result;
}

void SafeActions::writeIntent(AuditEntry& entry) {
    if (!audit_) return;
    entry.phase = "intent";
    try {
        audit_->append(entry);
    } catch (const Error& e) {
        throw StorageError(std::string(e.what()) + "; nothing was sent, so nothing changed");
    }
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

    const char* op = action == "release" ? "del" : seen.sawTtl ? "lengthen" : "pexpire";
    std::vector<std::string> args{op, std::to_string(ttl.count()),
                                  seen.fields.empty() ? "string" : "hash"};
    if (seen.fields.empty()) args.push_back(seen.token);
    for (const auto& f : seen.fields) args.push_back(f.field), args.push_back(f.value);
    writeIntent(entry);
    std::optional<std::int64_t> answer;
    std::string nonNumeric;
    try {
        answer = runCompare(entry, key, args, seen, ttl, nonNumeric);
    } catch (const PermissionError& e) {
        return refuse(ActionOutcome::Denied, std::string("denied: ") + e.what());
    } catch (const ReadOnlyError& e) {
        return refuse(ActionOutcome::Refused, e.what());
    } catch (const ReplyError& e) {
        if (!isReadOnlyReply(e)) failed(entry, e);
        return refuse(ActionOutcome::Refused, "refused: " + connection_.endpoint().display() +
                                                  " is a read-only replica, so nothing changed (" +
                                                  e.what() + ")");
    } catch (const OutcomeUnknownError& e) {
        return refuse(ActionOutcome::Unknown, "outcome unknown: the request to " + what + " " +
                                                  quoted(key, 80) +
                                                  " was sent but its reply was lost (" + e.what() +
                                                  "); look at the key before acting again");
    } catch (const Error& e) {
        failed(entry, e);
    }
    // Only the script's numbers are outcomes: +OK, nil or an array (a proxy, a faulty server)
    // says nothing about what happened.
    if (!answer)
        return refuse(ActionOutcome::Unknown,
                      "outcome unknown: the server answered " + nonNumeric +
                          " instead of a number, so LockScope cannot tell whether it did " + what +
                          " " + quoted(key, 80) + "; look at the key before acting again");
    const std::int64_t result = *answer;
    if (result == -1)
        return refuse(ActionOutcome::NotFound, quoted(key, 80) + " does not exist (any more)");
    if (result == 0)
        return refuse(ActionOutcome::TokenChanged,
                      "the lock " + quoted(key, 80) +
                          " changed hands, so nothing was changed: " + describeCurrent(key));
    if (result == -2)
        return refuse(ActionOutcome::TtlChanged,
                      "refused to set a TTL on " + quoted(key, 80) +
                          ": it has had a TTL since you looked (its holder is probably alive "
                          "and renewing it), so it is no longer an orphan; nothing was changed");
    if (result == -3)
        return refuse(ActionOutcome::TtlChanged,
                      "refused to set the TTL of " + quoted(key, 80) + " to " +
                          std::to_string(ttl.count()) +
                          " ms: that would shorten the TTL it has now, and let a second holder "
                          "in early; nothing was changed");
    if (result != 1)
        return refuse(ActionOutcome::Unknown, "outcome unknown: the server answered " +
                                                  std::to_string(result) + ", not 1, 0 or -1");
    const std::string how =
        entry.path.empty() ? "" : " (by " + entry.path + ": this server refuses scripting)";
    return finish(entry, {ActionOutcome::Done,
                          (action == "release" ? "released " + quoted(key, 80)
                                               : "set the TTL of " + quoted(key, 80) + " to " +
                                                     std::to_string(ttl.count()) + " ms") +
                              how});
}

std::optional<std::int64_t> SafeActions::runCompare(AuditEntry& entry, std::string_view key,
                                                    const std::vector<std::string>& args,
                                                    const Holder& seen,
                                                    std::chrono::milliseconds ttl,
                                                    std::string& nonNumeric) {
    if (!scriptingRefused_) {
        std::vector<std::string_view> argv(args.begin(), args.end());
        std::string_view keys[] = {key};
        try {
            Reply reply = connection_.eval(compareAndActScript(), keys, argv);
            if (!reply.view().isInteger()) {
                nonNumeric = reply.summary();
                return std::nullopt;
            }
            return reply.integer();
        } catch (const ReplyError& e) {
            if (!isScriptingUnavailable(e)) throw;
            scriptingRefused_ = true;  // nothing ran: the server refused the command itself
            scriptingRefusal_ = e.what();
        }
    }
    entry.path = toString(CompareAndActPath::Transaction);
    try {
        return compareAndActByTransaction(connection_, key, args[0], ttl, seen);
    } catch (const PermissionError& e) {
        // Name both refusals: the operator needs the script or the transaction allowed.
        throw PermissionError(scriptingRefusal_ +
                              "; and the WATCH/MULTI/EXEC way instead: " + e.what());
    }
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
    // What was there, for the audit trail (best effort; the delete does not depend on it).
    try {
        Reply v = connection_.command({"TYPE", key});
        if (v.text() == "string")
            entry.tokenSeen = std::string(connection_.command({"GET", key}).text());
    } catch (const ReplyError&) {
    }
    writeIntent(entry);
    Reply reply;
    try {
        reply = connection_.command({"DEL", key});
    } catch (const PermissionError& e) {
        return done(ActionOutcome::Denied, std::string("denied: ") + e.what());
    } catch (const ReplyError& e) {
        if (!isReadOnlyReply(e)) failed(entry, e);
        return done(ActionOutcome::Refused, "refused: " + connection_.endpoint().display() +
                                                " is a read-only replica, so nothing changed");
    } catch (const OutcomeUnknownError& e) {
        return done(ActionOutcome::Unknown, "outcome unknown: the DEL of " + quoted(key, 80) +
                                                " was sent but its reply was lost (" + e.what() +
                                                ")");
    } catch (const Error& e) {
        failed(entry, e);
    }
    if (!reply.view().isInteger())
        return done(ActionOutcome::Unknown, "outcome unknown: the server answered " +
                                                reply.summary() + " to DEL instead of a number");
    if (reply.integer() == 0)
        return done(ActionOutcome::NotFound, quoted(key, 80) + " does not exist (any more)");
    return done(ActionOutcome::Done, "deleted " + quoted(key, 80) + " unconditionally");
}

}  // namespace lockscope::inspect
