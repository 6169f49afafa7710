#include "fleet/lockscope_format.h"

#include <string>

#include "fleet/import_entry.h"
#include "lockscope/errors.h"
#include "lockscope/fleet/connection_export.h"

namespace lockscope::fleet {
namespace detail {
namespace {

using Json = nlohmann::json;

std::optional<Topology> topologyFrom(const std::string& name) {
    for (auto t : {Topology::Standalone, Topology::Cluster, Topology::Sentinel})
        if (topologyName(t) == name) return t;
    return std::nullopt;
}

std::string textOr(const Json& object, const char* key, std::string_view fallback = {}) {
    auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string(fallback);
}

void readTls(const Json& tls, TlsOptions& into) {
    if (!tls.is_object()) return;
    into.enabled = tls.value("enabled", false);
    into.caFile = textOr(tls, "ca_file");
    into.caDir = textOr(tls, "ca_dir");
    into.certFile = textOr(tls, "cert_file");
    into.keyFile = textOr(tls, "key_file");
    into.serverName = textOr(tls, "server_name");
    into.insecure = tls.value("insecure", false);
}

}  // namespace

bool isLockScopeFile(const Json& file) {
    return file.is_object() && file.value("format", std::string()) == kLockScopeFormat;
}

// The common fields go through the shared entry reader (its checks on host, port, db and
// text); what only LockScope writes is read here.
ImportEntry readLockScopeEntry(const Json& item, std::size_t position) {
    if (!item.is_object()) return readJsonEntry(item, position, {});
    Json common = Json::object();
    for (const char* key : {"name", "host", "port", "db", "username"})
        if (item.contains(key)) common[key] = item[key];
    if (item.contains("user")) common["username"] = item["user"];
    ImportEntry entry = readJsonEntry(common, position, textOr(item, "group"));
    if (!entry.connection) return entry;
    auto& c = *entry.connection;
    auto topology = topologyFrom(textOr(item, "topology", "standalone"));
    if (!topology) {
        entry.connection.reset();
        entry.status = EntryStatus::Failed;
        entry.notes.push_back("topology \"" + textOr(item, "topology") + "\" is unknown");
        return entry;
    }
    c.topology = *topology;
    readTls(item.value("tls", Json::object()), c.endpoint.tls);
    c.readOnly = item.value("read_only", false);
    for (const auto& p : item.value("patterns", Json::array()))
        if (p.is_string()) c.patterns.push_back(p.get<std::string>());
    if (c.topology == Topology::Sentinel) {
        c.sentinelService = textOr(item, "service");
        c.sentinelUser = textOr(item, "sentinel_user");
        try {
            for (const auto& s : item.value("sentinels", Json::array()))
                if (s.is_string())
                    c.sentinels.emplace_back(parseSentinelAddress(s.get<std::string>()));
        } catch (const InvalidArgumentError& e) {
            entry.notes.emplace_back(e.what());
        }
        if (c.sentinels.empty() || c.sentinelService.empty()) {
            entry.connection.reset();
            entry.status = EntryStatus::Failed;
            entry.notes.emplace_back("a Sentinel connection needs its Sentinels and service name");
        }
    }
    return entry;
}

}  // namespace detail

std::string exportConnections(const std::vector<PortableConnection>& connections) {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& c : connections) {
        nlohmann::ordered_json j;
        j["name"] = c.name;
        if (!c.group.empty()) j["group"] = c.group;
        j["topology"] = std::string(topologyName(c.topology));
        if (c.topology == Topology::Sentinel) {
            auto sentinels = nlohmann::ordered_json::array();
            for (const auto& s : c.sentinels)
                sentinels.push_back(s.host + ":" + std::to_string(s.port));
            j["sentinels"] = sentinels;
            j["service"] = c.sentinelService;
            if (!c.sentinelUser.empty()) j["sentinel_user"] = c.sentinelUser;
        }
        // Behind Sentinel, where the connection was first reached (the first Sentinel).
        j["host"] = c.endpoint.host;
        j["port"] = c.endpoint.port;
        if (c.endpoint.db != 0) j["db"] = c.endpoint.db;
        if (!c.endpoint.user.empty()) j["user"] = c.endpoint.user;
        const auto& tls = c.endpoint.tls;
        if (tls.enabled)
            j["tls"] = {{"enabled", true},         {"ca_file", tls.caFile},
                        {"ca_dir", tls.caDir},     {"cert_file", tls.certFile},
                        {"key_file", tls.keyFile}, {"server_name", tls.serverName},
                        {"insecure", tls.insecure}};
        j["read_only"] = c.readOnly;
        j["patterns"] = c.patterns;
        list.push_back(std::move(j));
    }
    nlohmann::ordered_json file;
    file["format"] = detail::kLockScopeFormat;
    file["version"] = 1;
    file["connections"] = std::move(list);
    return file.dump(2) + "\n";
}

}  // namespace lockscope::fleet
