#include "lockscope/inspect/audit_log.h"

#include <fcntl.h>
#include <pwd.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <system_error>

#include <nlohmann/json.hpp>

#include "json_text.h"
#include "lockscope/errors.h"

namespace lockscope::inspect {
namespace {

[[noreturn]] void fail(const std::string& what) {
    throw Error(ErrorKind::Storage, what);
}

std::string nowIso() {
    auto now = std::chrono::system_clock::now();
    auto secs = std::chrono::system_clock::to_time_t(now);
    auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() %
        1000;
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                  static_cast<int>(ms));
    return buf;
}

// The environment is read, never written, by LockScope: getenv is safe on any thread here.
std::string environment(const char* name) {
    const char* value = std::getenv(name);  // NOLINT(concurrency-mt-unsafe): see above
    return value ? value : "";
}

std::string envUser() {
    return environment("USER");
}

}  // namespace

AuditLog::AuditLog(std::string path) : path_(std::move(path)) {
    if (path_.empty()) fail("the audit log path is empty");
    std::error_code ec;
    auto parent = std::filesystem::path(path_).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    fd_ = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd_ < 0)
        fail("cannot open the audit log " + path_ + ": " + std::system_category().message(errno));
}

AuditLog::~AuditLog() {
    if (fd_ >= 0) ::close(fd_);
}

std::string AuditLog::format(const AuditEntry& e, const std::string& isoTime) {
    nlohmann::ordered_json j;
    bool escaped = false;
    j["time"] = isoTime;
    if (!e.id.empty()) j["id"] = e.id;
    j["phase"] = e.phase;
    const std::string user = osUser(), claimed = envUser();
    j["user"] = jsonSafe(user);
    if (!claimed.empty() && claimed != user) j["env_user"] = jsonSafe(claimed);
    j["instance"] = jsonSafe(e.instance);
    j["key"] = jsonSafe(e.key, &escaped);
    if (escaped) j["key_escaped"] = true;
    j["action"] = e.action;
    if (!e.fieldsSeen.empty()) {
        nlohmann::ordered_json fields = nlohmann::ordered_json::object();
        for (const auto& f : e.fieldsSeen) fields[jsonSafe(f.field)] = jsonSafe(f.value);
        j["token_seen"] = fields;
    } else if (e.tokenSeen) {
        j["token_seen"] = jsonSafe(*e.tokenSeen, &escaped);
        if (escaped) j["token_escaped"] = true;
    } else {
        j["token_seen"] = nullptr;
    }
    if (e.ttlMs) j["ttl_ms"] = *e.ttlMs;
    if (e.phase != "intent") j["result"] = e.result;
    j["detail"] = jsonSafe(e.detail);
    return j.dump();
}

void AuditLog::append(const AuditEntry& entry) {
    std::string line = format(entry, nowIso()) + "\n";
    std::lock_guard lock(mutex_);
    ssize_t n = ::write(fd_, line.data(), line.size());
    if (n != static_cast<ssize_t>(line.size()))
        fail("cannot write to the audit log " + path_ + ": " +
             (n < 0 ? std::system_category().message(errno) : "short write"));
    // A character device (/dev/full, a terminal) cannot be synced: EINVAL is not a failure.
    if (::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS)
        fail("cannot flush the audit log " + path_ +
             " to disk: " + std::system_category().message(errno));
}

std::string AuditLog::newId() {
    static std::atomic<unsigned> counter{0};
    auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
    return std::to_string(::getpid()) + "-" + std::to_string(micros) + "-" +
           std::to_string(++counter);
}

std::string AuditLog::osUser() {
    // getpwuid_r: other threads may look up accounts at the same time.
    uid_t uid = ::getuid();
    struct passwd pw {};
    struct passwd* found = nullptr;
    char buffer[4096];
    if (::getpwuid_r(uid, &pw, buffer, sizeof buffer, &found) == 0 && found && found->pw_name &&
        *found->pw_name)
        return found->pw_name;
    return "uid " + std::to_string(uid);
}

std::string AuditLog::defaultPath() {
    if (std::string p = environment("LOCKSCOPE_AUDIT_LOG"); !p.empty()) return p;
    if (std::string x = environment("XDG_STATE_HOME"); !x.empty())
        return x + "/lockscope/audit.jsonl";
    std::string home = environment("HOME");
    return (home.empty() ? "." : home) + "/.local/state/lockscope/audit.jsonl";
}

}  // namespace lockscope::inspect
