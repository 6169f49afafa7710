#pragma once
// The operator's actions on a lock, each one Lua script that checks the holder and acts
// atomically, so a lock that changed hands a moment ago is never touched:
//   release      delete only if the value is still the token seen (a hash: the fields seen)
//   expire       set a TTL (PEXPIRE) only if unchanged: the cure for an orphan with no TTL
//   forceDelete  DEL whatever is there, only when confirmed explicitly
// Every call, done or refused, appends one line to the audit log (when one is given).
// A read-only connection refuses all of them before sending anything.

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/audit_log.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

// Who held the lock when the operator looked: a token, or a Redisson hash's fields.
struct Holder {
    std::string token;
    std::vector<HashField> fields;  // non-empty: compare the hash instead of a string
    bool truncated = false;         // the record was cut: it cannot be compared, so refuse

    static Holder of(const LockRecord& record);
    static Holder ofToken(std::string token) { return Holder{std::move(token), {}, false}; }
};

enum class ActionOutcome {
    Done,          // released / TTL set / deleted
    NotFound,      // the key does not exist (any more)
    TokenChanged,  // someone else holds it now: nothing changed
    Refused,       // read-only connection, no --force, a truncated holder, a bad TTL
    Denied,        // the server's ACL denied a command (message names it)
};

const char* toString(ActionOutcome outcome);  // "done", "not-found", ...

struct ActionResult {
    ActionOutcome outcome = ActionOutcome::Done;
    std::string message;  // one line for the operator
    bool ok() const { return outcome == ActionOutcome::Done; }
};

class SafeActions {
  public:
    // The connection (and the audit log, which may be null) must outlive this object.
    SafeActions(Connection& connection, AuditLog* audit);

    ActionResult release(std::string_view key, const Holder& seen);
    ActionResult expire(std::string_view key, const Holder& seen, std::chrono::milliseconds ttl);
    ActionResult forceDelete(std::string_view key, bool confirmed);

    // Connection-level failures (IoError...) are audited as "error" and rethrown.

  private:
    ActionResult compareAndAct(std::string_view action, std::string_view key, const Holder& seen,
                               std::chrono::milliseconds ttl);
    std::string describeCurrent(std::string_view key);
    ActionResult finish(AuditEntry entry, ActionResult result);

    Connection& connection_;
    AuditLog* audit_;
};

}  // namespace lockscope::inspect
