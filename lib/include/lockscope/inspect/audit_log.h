#pragma once
// Every manual action (release, add TTL, force delete), done or refused, appended as JSON
// lines: time, user (the OS account of the real uid), instance, key, token seen, action,
// result, detail. An action that reaches the server writes two lines sharing one "id": its
// "intent" before anything is sent, its "result" after; one refused before sending writes only
// a result. One write(2) per line on an O_APPEND file, so concurrent writers (threads or
// processes) never interleave, and fsync(2) after each, so an intent is on disk before the act.

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

struct AuditEntry {
    std::string instance;
    std::string key;
    std::string action;  // "release", "expire", "force-delete"
    std::optional<std::string> tokenSeen;
    std::vector<HashField> fieldsSeen;  // a Redisson hash's holder
    std::optional<std::int64_t> ttlMs;  // for "expire"
    // "done", "not-found", "token-changed", "ttl-changed", "refused", "denied", "unknown",
    // "error"; empty in an intent
    std::string result;
    std::string detail;  // the message shown to the operator
    // Last, so that positional initialisers of the fields above stay valid.
    std::string id;                // pairs an intent with its result (AuditLog::newId())
    std::string phase = "result";  // "intent" (before sending) or "result"
    // How a compare-and-act ran when not by its script: "WATCH/MULTI/EXEC" where the server
    // refuses scripting. Empty: the script (or an action with one way only).
    std::string path;
};

class AuditLog {
  public:
    // Creates the file and its parent directories if needed. Throws Error(Storage) naming the
    // path when it cannot be opened for appending.
    explicit AuditLog(std::string path);
    ~AuditLog();
    AuditLog(const AuditLog&) = delete;
    AuditLog& operator=(const AuditLog&) = delete;

    // Thread-safe. Writes the line and fsyncs it. Throws Error(Storage) when the line cannot
    // be written in full or flushed to disk.
    void append(const AuditEntry& entry);
    // A new id, unique across processes: pid, time and a counter.
    static std::string newId();
    const std::string& path() const { return path_; }

    // $LOCKSCOPE_AUDIT_LOG, else $XDG_STATE_HOME/lockscope/audit.jsonl, else
    // ~/.local/state/lockscope/audit.jsonl.
    static std::string defaultPath();
    // The JSON line for an entry (without the newline), with the given UTC time.
    static std::string format(const AuditEntry& entry, const std::string& isoTime);
    // The OS account of the process's real uid (getpwuid(getuid())), "uid N" when it has no
    // name. $USER is recorded apart, as "env_user", only when it differs: anyone can set it.
    static std::string osUser();

  private:
    std::string path_;
    int fd_ = -1;
    std::mutex mutex_;
};

}  // namespace lockscope::inspect
