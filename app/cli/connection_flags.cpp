#include "connection_flags.h"

#include <charconv>
#include <cstdlib>

#include "lockscope/errors.h"
#include "lockscope/inspect/audit_log.h"
#include "lockscope/inspect/pacer.h"

namespace lockscope::cli {
namespace {

// Functions, not globals: commands register during static initialisation, in any order.
std::vector<std::string> valueFlags() {
    return {"-h", "-p", "-a", "--user", "-n", "-u", "--pattern", "--max-load", "--audit-log"};
}
std::vector<std::string> switches() {
    return {"--read-only", "--json"};
}

template <class T>
std::vector<T> joined(std::vector<T> a, const std::vector<T>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

std::vector<std::string> inspectorValueFlags(std::vector<std::string> own) {
    return joined(valueFlags(), own);
}

std::vector<std::string> inspectorFlagNames(std::vector<std::string> own) {
    return joined(joined(valueFlags(), switches()), own);
}

const char* inspectorFlagsHelp() {
    return "  -h HOST -p PORT      server (default 127.0.0.1 6379)\n"
           "  -a PASSWORD          password (or REDISCLI_AUTH); --user USER for an ACL user\n"
           "  -n DB                database number\n"
           "  -u URL               redis://[user[:pw]@]host[:port][/db] or unix:///path; repeat "
           "for several servers\n"
           "  --pattern GLOB       SCAN MATCH pattern, repeatable (default lock:*)\n"
           "  --read-only          send no writes (actions are refused)\n"
           "  --json               one JSON object per lock per line\n"
           "  --max-load SHARE     cap the share of server time used, e.g. 20%\n"
           "  --audit-log PATH     where actions are logged (default $LOCKSCOPE_AUDIT_LOG or\n"
           "                       ~/.local/state/lockscope/audit.jsonl)\n";
}

long long parseNumberFlag(const std::string& flag, const std::string& text, long long min,
                          long long max) {
    long long value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size() || value < min ||
        value > max)
        throw UsageError(flag + " takes a whole number from " + std::to_string(min) + " to " +
                         std::to_string(max));
    return value;
}

InspectorFlags parseInspectorFlags(const Arguments& args) {
    InspectorFlags f;
    f.readOnly = args.has("--read-only");
    f.json = args.has("--json");
    auto urls = args.values("-u");
    auto password = args.value("-a");
    if (!password)
        if (const char* env = std::getenv("REDISCLI_AUTH"); env && *env) password = env;
    auto user = args.value("--user");
    auto db = args.value("-n");
    if (!urls.empty()) {
        if (args.has("-h") || args.has("-p"))
            throw UsageError("-u cannot be combined with -h or -p");
        for (const auto& url : urls) {
            Endpoint e;
            try {
                e = parseEndpoint(url);
            } catch (const InvalidArgumentError& err) {
                throw UsageError(std::string("-u: ") + err.what());
            }
            if (e.password.empty() && password) e.password = *password;
            if (e.user.empty() && user) e.user = *user;
            if (db) e.db = static_cast<int>(parseNumberFlag("-n", *db, 0, 1'000'000));
            f.endpoints.push_back(std::move(e));
        }
    } else {
        Endpoint e;
        if (auto h = args.value("-h")) {
            if (h->empty() || h->size() > 255) throw UsageError("-h takes a host name or address");
            for (unsigned char c : *h)
                if (c <= 0x20 || c == 0x7f || c == '/' || c == '@')
                    throw UsageError("-h: the host contains a bad character");
            e.host = *h;
        }
        if (auto p = args.value("-p"))
            e.port = static_cast<int>(parseNumberFlag("-p", *p, 1, 65535));
        if (password) e.password = *password;
        if (user) e.user = *user;
        if (db) e.db = static_cast<int>(parseNumberFlag("-n", *db, 0, 1'000'000));
        f.endpoints.push_back(std::move(e));
    }
    if (user && !password) throw UsageError("--user needs a password (-a or REDISCLI_AUTH)");
    auto patterns = args.values("--pattern");
    if (!patterns.empty()) f.scan.patterns = patterns;
    if (auto load = args.value("--max-load")) {
        try {
            f.scan.maxLoad = inspect::Pacer::parseShare(*load);
        } catch (const InvalidArgumentError& e) {
            throw UsageError(std::string("--max-load: ") + e.what());
        }
    }
    try {
        inspect::validate(f.scan);
    } catch (const InvalidArgumentError& e) {
        throw UsageError(e.what());
    }
    f.auditLogPath = args.value("--audit-log").value_or(inspect::AuditLog::defaultPath());
    if (f.auditLogPath.empty()) throw UsageError("--audit-log needs a path");
    return f;
}

ConnectionOptions connectionOptions(const InspectorFlags& flags, bool onlyReads) {
    ConnectionOptions o;
    o.readOnly = flags.readOnly || onlyReads;
    return o;
}

}  // namespace lockscope::cli
