#pragma once
// Every manual action (release, add TTL, force delete), done or refused, appended as one
// JSON line: time, user, instance, key, token seen, action, result, detail. One write(2) per
// line on an O_APPEND file, so concurrent writers (threads or processes) never interleave.

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
    std::string result;  // "done", "not-found", "token-changed", "refused", "denied", "error"
    std::string detail;  // the message shown to the operator
};

class AuditLog {
  public:
    // Creates the file and its parent directories if needed. Throws Error(Storage) naming the
    // path when it cannot be opened for appending.
    explicit AuditLog(std::string path);
    ~AuditLog();
    AuditLog(const AuditLog&) = delete;
    AuditLog& operator=(const AuditLog&) = delete;

    // Thread-safe. Throws Error(Storage) when the line cannot be written in full.
    void append(const AuditEntry& entry);
    const std::string& path() const { return path_; }

    // $LOCKSCOPE_AUDIT_LOG, else $XDG_STATE_HOME/lockscope/audit.jsonl, else
    // ~/.local/state/lockscope/audit.jsonl.
    static std::string defaultPath();
    // The JSON line for an entry (without the newline), with the given UTC time.
    static std::string format(const AuditEntry& entry, const std::string& isoTime);

  private:
    std::string path_;
    int fd_ = -1;
    std::mutex mutex_;
};

}  // namespace lockscope::inspect
