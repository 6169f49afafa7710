#include "fleet/import_entry.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <initializer_list>
#include <optional>
#include <set>
#include <string_view>

namespace lockscope::fleet::detail {
namespace {

using Json = nlohmann::json;
using Paths = std::initializer_list<std::string_view>;

constexpr std::size_t kMaxText = 4096;
constexpr std::size_t kMaxPem = std::size_t{64} * 1024;

// The keys an entry may carry that LockScope reads, and those it knowingly leaves aside (a
// browser's display settings, the tools' own ids); any other key is named in a note.
const std::set<std::string, std::less<>>& knownKeys() {
    static const std::set<std::string, std::less<>> keys{
        // read
        "name", "connectionName", "host", "port", "db", "username", "password", "auth",
        "connectionType", "type", "cluster", "tls", "ssl", "tlsServername", "caCert", "clientCert",
        "certificate", "keyFile", "sslOptions", "ssl_ca_cert_path", "ssl_local_cert_path",
        "ssl_private_key_path", "verifyServerCert", "ssl_ignore_all_errors", "sentinelMaster",
        "sentinelOptions", "connectionReadOnly", "sshOptions", "ssh_host", "sshHost", "ssh",
        "use_ssh_tunnel",
        // knowingly left aside
        "id", "key", "order", "separator", "namespace_separator", "keys_pattern", "timeout_connect",
        "timeout_execute", "lastConnection", "provider", "nameFromProvider", "modules", "new",
        "compressor", "keyNameFormat", "timeout", "nodes", "tlsCaName", "tlsClientName", "ssh_port",
        "ssh_user", "ssh_password", "ssh_private_key_path", "ssh_public_key_path", "ssh_agent",
        "ssh_agent_path", "ask_ssh_password", "sshPort", "sshUser", "sshPassword", "sshKeyFile",
        "sshKeyPassphrase", "luaKeysLoading", "db_scan_limit", "cluster_host_override", "version",
        "createdAt", "forceStandalone", "tags", "icon", "color"};
    return keys;
}

bool hasControlCharacter(std::string_view text) {
    return std::any_of(text.begin(), text.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; });
}

const Json* at(const Json& object, std::string_view dotted) {
    const Json* current = &object;
    while (!dotted.empty()) {
        if (!current->is_object()) return nullptr;
        auto dot = dotted.find('.');
        auto it = current->find(std::string(dotted.substr(0, dot)));
        if (it == current->end() || it->is_null()) return nullptr;
        current = &*it;
        dotted.remove_prefix(dot == std::string_view::npos ? dotted.size() : dot + 1);
    }
    // An empty string means "not set" in every tool's files.
    if (current->is_string() && current->get_ref<const std::string&>().empty()) return nullptr;
    return current;
}

std::optional<long long> integerOf(const Json& value) {
    if (value.is_number_integer()) return value.get<long long>();
    if (!value.is_string()) return std::nullopt;
    const auto& text = value.get_ref<const std::string&>();
    auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
    if (text.empty() || text.size() > 10 || !std::all_of(text.begin(), text.end(), isDigit))
        return std::nullopt;
    return std::stoll(text);
}

std::optional<bool> booleanOf(const Json& value) {
    if (value.is_boolean()) return value.get<bool>();
    if (value.is_number_integer()) return value.get<long long>() != 0;
    if (value == "true") return true;
    if (value == "false") return false;
    return std::nullopt;
}

std::string shortDump(const Json& value) {
    auto text = value.dump(-1, ' ', true, Json::error_handler_t::replace);
    if (text.size() <= 40) return text;
    text.resize(40);  // in place: GCC 12 warns falsely (-Warray-bounds) on substr() + "…"
    return text + "…";
}

// Reads the fields of one entry, collecting what it changed or could not use.
class EntryReader {
  public:
    EntryReader(const Json& item, ImportEntry& entry) : item_(item), entry_(entry) {}

    bool failed() const { return failed_; }
    void fail(const std::string& why) {
        failed_ = true;
        entry_.notes.push_back(why);
    }
    void note(const std::string& what) { entry_.notes.push_back(what); }

    const Json* find(Paths paths) const {
        for (auto path : paths)
            if (const Json* value = at(item_, path)) return value;
        return nullptr;
    }

    // Text under one of `paths`: a string (or a number, written out), checked for control
    // characters and length. A value of another type fails the entry when `required`, and is
    // left out with a note otherwise.
    std::optional<std::string> text(Paths paths, std::string_view label, bool required = false,
                                    std::size_t maxLength = kMaxText) {
        const Json* value = find(paths);
        if (!value) {
            if (required) fail(std::string(label) + " is missing");
            return std::nullopt;
        }
        std::string result;
        if (value->is_string())
            result = value->get<std::string>();
        else if (value->is_number_integer())
            result = value->dump();
        else
            return refuse(label, "is not text: " + shortDump(*value), required);
        if (result.size() > maxLength)
            return refuse(label, "is longer than " + std::to_string(maxLength) + " bytes",
                          required);
        if (maxLength != kMaxPem && hasControlCharacter(result))
            return refuse(label, "holds control characters", required);
        return result;
    }

    std::optional<long long> integer(Paths paths, std::string_view label, long long low,
                                     long long high) {
        const Json* value = find(paths);
        if (!value) return std::nullopt;
        auto number = integerOf(*value);
        if (!number || *number < low || *number > high) {
            fail(std::string(label) + " " + shortDump(*value) + " is not a number from " +
                 std::to_string(low) + " to " + std::to_string(high));
            return std::nullopt;
        }
        return number;
    }

    std::optional<bool> flag(Paths paths, std::string_view label) {
        const Json* value = find(paths);
        if (!value) return std::nullopt;
        auto result = booleanOf(*value);
        if (!result)
            note(std::string(label) + " " + shortDump(*value) + " is not true/false; ignored");
        return result;
    }

    void noteUnknownKeys() {
        std::vector<std::string> unknown;
        for (const auto& [key, value] : item_.items())
            if (!knownKeys().contains(key))
                unknown.push_back(key.size() > 40 ? key.substr(0, 40) + "…" : key);
        if (unknown.empty()) return;
        std::string list;
        for (std::size_t i = 0; i < unknown.size() && i < 8; ++i)
            list += (i ? ", " : "") + unknown[i];
        if (unknown.size() > 8) list += " and " + std::to_string(unknown.size() - 8) + " more";
        note("fields LockScope does not know were left out: " + list);
    }

  private:
    std::nullopt_t refuse(std::string_view label, const std::string& why, bool required) {
        if (required)
            fail(std::string(label) + " " + why);
        else
            note(std::string(label) + " " + why + "; left out");
        return std::nullopt;
    }

    const Json& item_;
    ImportEntry& entry_;
    bool failed_ = false;
};

std::optional<Topology> topologyNamed(std::string name) {
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (name == "standalone") return Topology::Standalone;
    if (name == "cluster") return Topology::Cluster;
    if (name == "sentinel") return Topology::Sentinel;
    return std::nullopt;
}

Topology readTopology(EntryReader& r, bool namesSentinelService) {
    if (auto type = r.text({"connectionType", "type"}, "connection type")) {
        if (auto known = topologyNamed(*type)) return *known;
        r.note("connection type \"" + *type + "\" is unknown; read as a single server");
    }
    if (r.flag({"cluster"}, "cluster").value_or(false)) return Topology::Cluster;
    return namesSentinelService ? Topology::Sentinel : Topology::Standalone;
}

// A certificate or key value is a file path in most tools and the PEM text itself in
// RedisInsight's export.
void readPemOrPath(EntryReader& r, Paths paths, std::string_view label, std::string& path,
                   std::string& pem) {
    auto value = r.text(paths, label, false, kMaxPem);
    if (!value) return;
    if (value->starts_with("-----BEGIN"))
        pem = *value;
    else if (hasControlCharacter(*value) || value->size() > kMaxText)
        r.note(std::string(label) + " is neither PEM text nor a file path; left out");
    else
        path = *value;
}

void readTls(EntryReader& r, PortableConnection& c) {
    auto& tls = c.endpoint.tls;
    readPemOrPath(r, {"caCert.certificate", "caCert", "sslOptions.ca", "ssl_ca_cert_path"},
                  "CA certificate", tls.caFile, c.pem.ca);
    readPemOrPath(
        r, {"clientCert.certificate", "certificate", "sslOptions.cert", "ssl_local_cert_path"},
        "client certificate", tls.certFile, c.pem.cert);
    readPemOrPath(r, {"clientCert.key", "keyFile", "sslOptions.key", "ssl_private_key_path"},
                  "client key", tls.keyFile, c.pem.key);
    bool anyCertificate = !tls.caFile.empty() || !tls.certFile.empty() || !tls.keyFile.empty() ||
                          !c.pem.empty() || r.find({"sslOptions"});
    tls.enabled = r.flag({"tls", "ssl"}, "tls").value_or(false) || anyCertificate;
    if (!tls.enabled) return;
    tls.serverName =
        r.text({"tlsServername", "sslOptions.servername"}, "TLS server name").value_or("");
    bool verifyOff = r.flag({"verifyServerCert"}, "verifyServerCert") == false ||
                     r.flag({"ssl_ignore_all_errors"}, "ssl_ignore_all_errors") == true;
    if (verifyOff) {
        tls.insecure = true;
        r.note(
            "the source did not verify the server's certificate; neither will LockScope "
            "until you turn verification on");
    }
}

void readSentinel(EntryReader& r, PortableConnection& c, const std::string& host, int port) {
    c.sentinels.push_back({host, port});
    auto service =
        r.text({"sentinelMaster.name", "sentinelOptions.masterName", "sentinelOptions.name"},
               "Sentinel service name", true);
    if (!service) return;
    c.sentinelService = *service;
    // Both tools keep the Sentinel's credentials at the top and the data nodes' inside.
    c.sentinelUser = c.endpoint.user;
    c.endpoint.user = r.text({"sentinelMaster.username"}, "primary's user").value_or("");
    c.sentinelPassword = c.password;
    c.password =
        r.text({"sentinelMaster.password", "sentinelOptions.nodePassword"}, "primary's password")
            .value_or("");
}

void noteSshTunnel(EntryReader& r) {
    auto via = r.text({"sshOptions.host", "ssh_host", "sshHost"}, "SSH host");
    bool flagged = r.flag({"ssh", "use_ssh_tunnel"}, "ssh").value_or(false);
    if (!via && !flagged) return;
    r.note("it connects through an SSH tunnel" + (via ? " via " + *via : std::string()) +
           ", which LockScope does not open: start the tunnel yourself (ssh -L) and point the "
           "connection at its local end");
}

}  // namespace

ImportEntry readJsonEntry(const Json& item, std::size_t position, const std::string& group) {
    ImportEntry entry;
    entry.position = position;
    if (!item.is_object()) {
        entry.notes.push_back("not a connection (a JSON " + std::string(item.type_name()) +
                              ", not an object)");
        return entry;
    }
    EntryReader r(item, entry);
    PortableConnection c;
    c.group = group;
    auto host = r.text({"host"}, "host", true, 253);
    if (host && (host->find_first_of(" /@") != std::string::npos))
        r.fail("host \"" + *host + "\" is not a host name or address");
    auto port = r.integer({"port"}, "port", 1, 65535);
    auto db = r.integer({"db"}, "db", 0, 1'000'000);
    c.endpoint.user = r.text({"username"}, "user").value_or("");
    c.password = r.text({"password", "auth"}, "password").value_or("");
    c.name = r.text({"name", "connectionName"}, "name", false, 200).value_or("");
    bool namesService = r.find({"sentinelMaster.name", "sentinelOptions.masterName",
                                "sentinelOptions.name"}) != nullptr;
    c.topology = readTopology(r, namesService);
    if (r.failed()) return entry;

    if (!port) r.note("no port given: 6379 assumed");
    c.endpoint.host = *host;
    c.endpoint.port = static_cast<int>(port.value_or(6379));
    c.endpoint.db = static_cast<int>(db.value_or(0));
    if (c.name.empty()) c.name = *host + ":" + std::to_string(c.endpoint.port);
    readTls(r, c);
    if (c.topology == Topology::Sentinel) readSentinel(r, c, *host, c.endpoint.port);
    c.readOnly = r.flag({"connectionReadOnly"}, "connectionReadOnly").value_or(false);
    noteSshTunnel(r);
    r.noteUnknownKeys();
    if (r.failed()) return entry;
    entry.status = entry.notes.empty() ? EntryStatus::Imported : EntryStatus::ImportedWithNotes;
    entry.connection = std::move(c);
    return entry;
}

ImportFormat guessFormat(const Json& item) {
    auto hasAny = [&](Paths keys) {
        return item.is_object() && std::any_of(keys.begin(), keys.end(), [&](auto key) {
                   return item.contains(std::string(key));
               });
    };
    if (hasAny({"connectionType", "caCert", "clientCert", "sentinelMaster", "tlsServername",
                "verifyServerCert", "nameFromProvider", "provider"}))
        return ImportFormat::RedisInsight;
    if (hasAny({"sslOptions", "sentinelOptions", "sshOptions", "connectionReadOnly", "separator",
                "order"}))
        return ImportFormat::AnotherRedisDesktopManager;
    if (hasAny({"ssl", "ssl_ca_cert_path", "namespace_separator", "keys_pattern", "timeout_connect",
                "ssh_host", "auth"}))
        return ImportFormat::RespApp;
    return ImportFormat::RedisInsight;
}

}  // namespace lockscope::fleet::detail
