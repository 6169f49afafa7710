#include "connection_flags.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "lockscope/duration_text.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/audit_log.h"
#include "lockscope/text_format.h"
#include "secrets.h"

namespace lockscope::cli {

// A function, not a global: commands register during static initialisation, in any order.
namespace {

// A path the operator typed goes where they said or nowhere: a mistyped folder is an
// error, not a tree of folders created (as root, perhaps) to hold it. Only the default
// path's folders are made.
void checkAuditLogFolder(const std::string& path) {
    const std::filesystem::path folder = std::filesystem::path(path).parent_path();
    std::error_code ec;
    if (folder.empty() || std::filesystem::is_directory(folder, ec)) return;
    throw UsageError("--audit-log: the folder \"" + printable(folder.string(), 200) +
                     "\" does not exist (create it first; LockScope makes only the default "
                     "log's folders)");
}

}  // namespace

std::vector<OptionSpec> inspectorOptionSpecs() {
    const std::string server = "Connection", tls = "TLS (as redis-cli)", scan = "Scan and output";
    return {
        {"-h,--host", "HOST", "server host (default 127.0.0.1)", server},
        {"-p,--port", "PORT", "server port (default 6379)", server},
        {"-a,--pass", "PASSWORD",
         "password (prefer REDISCLI_AUTH or --askpass: arguments are visible to other users)",
         server},
        {"--askpass", "", "read the password from the terminal, without echo", server},
        {"--user", "USER", "ACL user name (with no password: AUTH with an empty one)", server},
        {"-n,--db", "DB", "database number", server},
        {"-u,--url", "URL",
         "redis://[user[:pw]@]host[:port][/db] or unix:///path; repeat for several servers",
         server},
        {"--read-only", "", "send no writes (actions are refused)", server},
        {"--sentinel", "HOST:PORT",
         "find the primary through this Sentinel (repeatable, asked in turn); with --service; "
         "or -u redis-sentinel://[user[:pw]@]h[:p][,h2[:p2]]...[/db]#service",
         server},
        {"--service", "NAME", "the Sentinel service (master) name, e.g. mymaster", server},
        {"--sentinel-user", "USER", "ACL user for the Sentinels (default: none)", server},
        {"--sentinel-password", "PASSWORD",
         "password for the Sentinels, which may differ from the data nodes'", server},
        {"--cluster-map", "ANNOUNCED=REACHABLE",
         "Redis Cluster: reach the node announced at host:port through another host:port "
         "(NAT, containers, tunnels); repeatable",
         server},
        {"--cluster-via-seed", "",
         "Redis Cluster: reach every node through the -u/-h host, at its announced port", server},
        {"--scan-replicas", "",
         "Redis Cluster: scan one replica per shard (READONLY), not the primaries; records say "
         "how far it lags",
         server},
        {"--tls", "", "TLS, verified against the system store unless --cacert", tls},
        {"--cacert", "FILE", "trust this CA certificate (PEM); implies --tls", tls},
        {"--cacertdir", "DIR", "trust the CAs in this hashed directory; implies --tls", tls},
        {"--cert", "FILE", "client certificate for mutual TLS (PEM)", tls},
        {"--key", "FILE", "the client certificate's private key (PEM)", tls},
        {"--sni", "NAME", "server name to send and check (default: the host)", tls},
        {"--insecure", "", "skip certificate verification (warned loudly)", tls},
        {"--pattern", "GLOB", "SCAN MATCH pattern, repeatable (default lock:*)", scan},
        {"--json", "", "one JSON object per line", scan},
        {"--max-load", "PERCENT", "cap the share of server time used, 1% to 100%, e.g. 20%", scan},
        {"--scan-deadline", "DURATION",
         "give up a scan that runs longer than this, e.g. 30s, 2m, 500ms (default: none)", scan},
        {"--audit-log", "PATH",
         "where actions are logged (default $LOCKSCOPE_AUDIT_LOG or "
         "~/.local/state/lockscope/audit.jsonl)",
         scan},
    };
}

std::string inspectorFlagsHelp() {
    std::string out;
    for (const auto& spec : inspectorOptionSpecs()) {
        std::string left = spec.names + (spec.valueName.empty() ? "" : " " + spec.valueName);
        left.resize(std::max<std::size_t>(left.size() + 1, 24), ' ');
        out += "  " + left + spec.help + "\n";
    }
    return out;
}

double parseMaxLoad(const std::string& text) {
    // One form only, a percentage: "1.5" or "0.2" alone meant different things before.
    const std::string shown = text.substr(0, 32);
    if (!text.ends_with('%'))
        throw UsageError("--max-load takes a percentage with %, from 1% to 100%, like 20%; got \"" +
                         shown + "\"");
    std::string_view number(text.data(), text.size() - 1);
    double percent = 0;
    auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), percent,
                                     std::chars_format::fixed);
    if (number.empty() || ec != std::errc() || end != number.data() + number.size() ||
        !(percent >= 1.0 && percent <= 100.0))
        throw UsageError("--max-load takes a percentage from 1% to 100%, like 20%; got \"" + shown +
                         "\"");
    return percent / 100.0;
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

std::chrono::milliseconds parseDurationFlag(const std::string& flag, const std::string& text,
                                            std::chrono::milliseconds min,
                                            std::chrono::milliseconds max) {
    const std::string shown = text.substr(0, 32);
    const auto usage = [&] {
        return UsageError(flag + " takes a duration from " + formatDuration(min.count()) + " to " +
                          formatDuration(max.count()) + ", like 30s, 2m or 500ms; got \"" + shown +
                          "\"");
    };
    auto at = text.find_first_not_of("0123456789");
    const std::string digits = text.substr(0, at);
    const std::string unit = at == std::string::npos ? "s" : text.substr(at);
    long long n = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) throw usage();
    long long perUnit = 0;
    if (unit == "ms") perUnit = 1;
    if (unit == "s") perUnit = 1000;
    if (unit == "m") perUnit = 60'000;
    if (unit == "h") perUnit = 3'600'000;
    // Bounded before multiplying, so a 30-digit number cannot overflow.
    if (perUnit == 0 || n > max.count() / perUnit) throw usage();
    std::chrono::milliseconds value(n * perUnit);
    if (value < min) throw usage();
    return value;
}

namespace {

// redis-cli's TLS flags, applied to every endpoint (rediss:// URLs turn TLS on by themselves;
// --cacert and the other TLS flags imply --tls).
void applyTlsFlags(const Arguments& args, std::vector<Endpoint>& endpoints) {
    TlsOptions flags;
    flags.enabled = args.has("--tls");
    flags.insecure = args.has("--insecure");
    flags.caFile = args.value("--cacert").value_or("");
    flags.caDir = args.value("--cacertdir").value_or("");
    flags.certFile = args.value("--cert").value_or("");
    flags.keyFile = args.value("--key").value_or("");
    flags.serverName = args.value("--sni").value_or("");
    if (flags == TlsOptions{}) return;
    for (Endpoint& e : endpoints) {
        if (e.isUnix()) throw UsageError("TLS flags do not apply to a unix:// socket");
        mergeTlsOptions(e.tls, flags);
        e.tls.enabled = true;
    }
    if (flags.insecure)
        std::fputs(
            "WARNING: --insecure: the server's certificate and name are NOT verified; "
            "anyone on the path can read and change this session\n",
            stderr);
}

// A redis-sentinel:// URL (the only -u then), or --sentinel HOST:PORT... with --service.
std::optional<SentinelTarget> sentinelFromFlags(const Arguments& args,
                                                const std::vector<std::string>& urls) {
    auto sentinels = args.values("--sentinel");
    bool anyUrl = std::any_of(urls.begin(), urls.end(),
                              [](const std::string& u) { return isSentinelUrl(u); });
    if (!anyUrl && sentinels.empty()) {
        for (const char* flag : {"--service", "--sentinel-user", "--sentinel-password"})
            if (args.has(flag)) throw UsageError(std::string(flag) + " needs --sentinel");
        return std::nullopt;
    }
    if (args.has("-h") || args.has("-p"))
        throw UsageError("Sentinel finds the primary: -h and -p do not apply");
    SentinelTarget t;
    try {
        if (anyUrl) {
            if (urls.size() != 1 || !sentinels.empty())
                throw UsageError("give one redis-sentinel:// URL, or --sentinel flags, not both");
            t = parseSentinelUrl(urls[0]);
        } else {
            if (!urls.empty()) throw UsageError("give -u or --sentinel, not both");
            for (const auto& s : sentinels) t.sentinels.push_back(parseSentinelAddress(s));
        }
    } catch (const InvalidArgumentError& e) {
        throw UsageError(std::string(anyUrl ? "-u: " : "--sentinel: ") + e.what());
    }
    if (auto service = args.value("--service")) t.service = *service;
    if (t.service.empty() || t.service.size() > 256)
        throw UsageError("Sentinel needs the service name: --service NAME (or #NAME in the URL)");
    if (auto u = args.value("--sentinel-user")) t.sentinelUser = *u;
    if (auto p = args.value("--sentinel-password")) t.sentinelPassword = *p;
    return t;
}

}  // namespace

InspectorFlags parseInspectorFlags(const Arguments& args) {
    InspectorFlags f;
    f.readOnly = args.has("--read-only");
    f.json = args.has("--json");
    auto urls = args.values("-u");
    auto password = args.value("-a");
    if (args.has("--askpass")) {
        if (password) throw UsageError("give -a or --askpass, not both");
        password = askPassword("Password: ");
    }
    // The environment is read, never written, by LockScope: getenv is safe on any thread.
    if (!password)
        if (const char* env = std::getenv("REDISCLI_AUTH");  // NOLINT(concurrency-mt-unsafe)
            env && *env)
            password = env;
    auto user = args.value("--user");
    auto db = args.value("-n");
    std::optional<SentinelTarget> sentinel = sentinelFromFlags(args, urls);
    if (sentinel) {
        if (password && sentinel->data.password.empty()) sentinel->data.password = *password;
        if (user && sentinel->data.user.empty()) sentinel->data.user = *user;
        if (db) sentinel->data.db = static_cast<int>(parseNumberFlag("-n", *db, 0, 1'000'000));
        std::vector<Endpoint> data{sentinel->data};
        applyTlsFlags(args, data);
        sentinel->data = data[0];
        // Found now, so a wrong service or Sentinels that are all down fail at once.
        f.endpoints.push_back(discoverPrimary(*sentinel, {}));
        f.sentinel = std::move(sentinel);
    } else if (!urls.empty()) {
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
    if (!f.sentinel) applyTlsFlags(args, f.endpoints);
    auto patterns = args.values("--pattern");
    if (!patterns.empty()) f.scan.patterns = patterns;
    if (auto load = args.value("--max-load")) {
        try {
            f.scan.maxLoad = parseMaxLoad(*load);
        } catch (const InvalidArgumentError& e) {
            throw UsageError(std::string("--max-load: ") + e.what());
        }
    }
    if (auto deadline = args.value("--scan-deadline"))
        f.scan.deadline = parseDurationFlag("--scan-deadline", *deadline,
                                            std::chrono::milliseconds(100), std::chrono::hours(24));
    try {
        inspect::validate(f.scan);
    } catch (const InvalidArgumentError& e) {
        throw UsageError(e.what());
    }
    for (const auto& entry : args.values("--cluster-map")) {
        try {
            inspect::addAddressMapping(f.clusterAddressing, entry);
        } catch (const InvalidArgumentError& e) {
            throw UsageError(e.what());
        }
    }
    f.clusterAddressing.throughSeedHost = args.has("--cluster-via-seed");
    f.scanReplicas = args.has("--scan-replicas");
    f.auditLogPath = args.value("--audit-log").value_or(inspect::AuditLog::defaultPath());
    if (f.auditLogPath.empty()) throw UsageError("--audit-log needs a path");
    if (args.has("--audit-log")) checkAuditLogFolder(f.auditLogPath);
    return f;
}

ConnectionOptions connectionOptions(const InspectorFlags& flags, bool onlyReads) {
    ConnectionOptions o;
    o.readOnly = flags.readOnly || onlyReads;
    return o;
}

}  // namespace lockscope::cli
