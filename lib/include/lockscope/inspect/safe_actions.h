#pragma once
// The operator's actions on a lock, each one Lua script that checks the holder and acts
// atomically, so a lock that changed hands a moment ago is never touched:
//   release      delete only if the value is still the token seen (a hash: the fields seen)
//   expire       set a TTL (PEXPIRE) only if unchanged: the cure for an orphan with no TTL.
//                A lock that got a TTL since it was seen (its holder is alive) is left alone;
//                one seen with a TTL is only ever lengthened, never shortened.
//   forceDelete  DEL whatever is there, only when confirmed explicitly
// Audit (when a log is given): the intent is written (and fsync'd) before anything is sent,
// and nothing is sent when it cannot be; the result follows. A call refused before sending
// writes its result only. A read-only connection refuses all of them before sending anything.

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/audit_log.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

// Who held the lock when the operator looked: a token, or a Redisson hash's fields.
struct Holder {
    std::string token;
    std::vector<HashField> fields;  // non-empty: compare the hash instead of a string
    bool truncated = false;         // the record was cut: it cannot be compared, so refuse
    bool sawTtl = false;            // the lock had a TTL when seen: expire may only lengthen it

    static Holder of(const LockRecord& record);
    static Holder ofToken(std::string token) { return Holder{std::move(token), {}, false}; }
};

enum class ActionOutcome {
    Done,          // released / TTL set / deleted
    NotFound,      // the key does not exist (any more)
    TokenChanged,  // someone else holds it now: nothing changed
    TtlChanged,    // expire: the lock got a TTL since it was seen, or the TTL would shrink
    Refused,       // read-only connection or replica, no --force, a truncated holder, a bad TTL
    Denied,        // the server's ACL denied a command (message names it)
    Unknown,       // sent, but the reply was lost or not a number: it may or may not have acted
};

const char* toString(ActionOutcome outcome);  // "done", "not-found", ...

struct ActionResult {
    ActionOutcome outcome = ActionOutcome::Done;
    std::string message;       // one line for the operator
    std::string auditProblem;  // set when the result could not be written to the audit log
    bool ok() const { return outcome == ActionOutcome::Done; }
};

// Loads the actions' scripts into the server's cache (SCRIPT LOAD), so the next release or
// expire runs as one EVALSHA: a cluster's importing node answers only the one command after
// ASKING.
void preloadActionScripts(Connection& connection);

class SafeActions {
  public:
    // The connection (and the audit log, which may be null) must outlive this object.
    SafeActions(Connection& connection, AuditLog* audit);

    ActionResult release(std::string_view key, const Holder& seen);
    ActionResult expire(std::string_view key, const Holder& seen, std::chrono::milliseconds ttl);
    ActionResult forceDelete(std::string_view key, bool confirmed);

    // A lost reply (OutcomeUnknownError) is the outcome Unknown. Other connection-level
    // failures (IoError...) are audited as "error" and rethrown. When the intent cannot be
    // written to the audit log, nothing is sent and its StorageError is thrown.

  private:
    ActionResult compareAndAct(std::string_view action, std::string_view key, const Holder& seen,
                               std::chrono::milliseconds ttl);
    std::string describeCurrent(std::string_view key);
    // Writes the result line; a failure to write it is reported in the result, not thrown.
    ActionResult finish(AuditEntry entry, ActionResult result);
    void writeIntent(AuditEntry& entry);
    // Audits a connection failure as "error" and rethrows the exception being handled.
    [[noreturn]] void failed(AuditEntry entry, const Error& error);

    Connection& connection_;
    AuditLog* audit_;
};

}  // namespace lockscope::inspect
