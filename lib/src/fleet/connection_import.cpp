#include "lockscope/fleet/connection_import.h"

#include <algorithm>
#include <map>

#include "fleet/import_entry.h"
#include "fleet/import_file.h"
#include "fleet/lockscope_format.h"
#include "lockscope/errors.h"

namespace lockscope::fleet {
namespace {

using Json = nlohmann::json;

[[noreturn]] void refuse(const std::string& why) {
    throw InvalidArgumentError("cannot import this file: " + why);
}

// A group (RESP.app's folders, or LockScope's own) is an entry holding a list of connections.
bool isGroup(const Json& item) {
    return item.is_object() && !item.contains("host") && item.contains("connections") &&
           item["connections"].is_array();
}

struct FlatEntry {
    const Json* item;
    std::string group;
};

std::vector<FlatEntry> flatten(const Json& list) {
    std::vector<FlatEntry> flat;
    auto add = [&](const Json& item, const std::string& group) {
        if (flat.size() == kMaxImportEntries)
            refuse("it holds more than " + std::to_string(kMaxImportEntries) +
                   " connections; split it");
        flat.push_back({&item, group});
    };
    for (const auto& item : list) {
        if (!isGroup(item)) {
            add(item, {});
            continue;
        }
        auto name = item.value("name", Json()).is_string() ? item["name"].get<std::string>() : "";
        for (const auto& member : item["connections"]) add(member, name);
    }
    return flat;
}

const Json& connectionList(const Json& file) {
    if (file.is_array()) return file;
    auto it = file.find("connections");
    if (it == file.end() || !it->is_array())
        refuse("it is a JSON object without a list of connections");
    return *it;
}

ImportFormat majorityFormat(const std::vector<FlatEntry>& entries) {
    std::map<ImportFormat, std::size_t> votes;
    for (const auto& e : entries) ++votes[detail::guessFormat(*e.item)];
    auto best = std::max_element(votes.begin(), votes.end(),
                                 [](const auto& a, const auto& b) { return a.second < b.second; });
    return best == votes.end() ? ImportFormat::RedisInsight : best->first;
}

ImportReport importJson(const Json& file, bool fromBase64) {
    bool ours = detail::isLockScopeFile(file);
    auto entries = flatten(connectionList(file));
    if (entries.empty()) refuse("it lists no connections");
    ImportReport report;
    report.format = ours         ? ImportFormat::LockScope
                    : fromBase64 ? ImportFormat::AnotherRedisDesktopManager
                                 : majorityFormat(entries);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const auto& [item, group] = entries[i];
        report.entries.push_back(ours ? detail::readLockScopeEntry(*item, i + 1)
                                      : detail::readJsonEntry(*item, i + 1, group));
    }
    return report;
}

PortableConnection fromUrl(const std::string& url) {
    PortableConnection c;
    if (isSentinelUrl(url)) {
        auto target = parseSentinelUrl(url);
        c.topology = Topology::Sentinel;
        c.sentinels = target.sentinels;
        c.sentinelService = target.service;
        c.sentinelUser = target.sentinelUser;
        c.sentinelPassword = target.sentinelPassword;
        c.endpoint = target.data;
        c.endpoint.host = target.sentinels.front().host;
        c.endpoint.port = target.sentinels.front().port;
        c.name = target.service;
    } else {
        c.endpoint = parseEndpoint(url);
        c.name = c.endpoint.isUnix() ? c.endpoint.unixPath
                                     : c.endpoint.host + ":" + std::to_string(c.endpoint.port);
    }
    c.password = std::exchange(c.endpoint.password, {});
    return c;
}

ImportReport importUrlList(const std::vector<detail::UrlLine>& lines) {
    if (lines.size() > kMaxImportEntries)
        refuse("it holds more than " + std::to_string(kMaxImportEntries) + " URLs; split it");
    ImportReport report;
    report.format = ImportFormat::UrlList;
    for (const auto& line : lines) {
        ImportEntry entry;
        entry.position = line.lineNumber;
        try {
            entry.connection = fromUrl(line.text);
            entry.status = EntryStatus::Imported;
        } catch (const InvalidArgumentError& e) {
            entry.notes.push_back("line " + std::to_string(line.lineNumber) + ": " + e.what());
        }
        report.entries.push_back(std::move(entry));
    }
    return report;
}

std::string duplicateNameNote(const std::string& name, const std::string& renamed) {
    return "another entry is also named \"" + name + "\": imported as \"" + renamed + "\"";
}

// Two entries of one file with the same name would be one connection in the sidebar: the
// later ones get a number, and say so.
void numberDuplicateNames(ImportReport& report) {
    std::map<std::string, int> seen;
    for (auto& entry : report.entries) {
        if (!entry.connection) continue;
        auto& name = entry.connection->name;
        int& count = seen[name];
        if (++count == 1) continue;
        std::string renamed = name;
        renamed += " (" + std::to_string(count) + ")";
        entry.notes.push_back(duplicateNameNote(name, renamed));
        entry.status = EntryStatus::ImportedWithNotes;
        name = renamed;
    }
}

}  // namespace

ImportReport importConnections(std::string_view contents) {
    auto file = detail::decodeFile(contents);
    auto report =
        file.json ? importJson(*file.json, file.fromBase64) : importUrlList(file.urlLines);
    numberDuplicateNames(report);
    return report;
}

std::size_t ImportReport::count(EntryStatus status) const {
    return static_cast<std::size_t>(std::count_if(
        entries.begin(), entries.end(), [&](const auto& e) { return e.status == status; }));
}

std::string_view formatName(ImportFormat format) {
    switch (format) {
        case ImportFormat::RedisInsight:
            return "RedisInsight export";
        case ImportFormat::AnotherRedisDesktopManager:
            return "Another Redis Desktop Manager export";
        case ImportFormat::RespApp:
            return "RESP.app connections";
        case ImportFormat::LockScope:
            return "LockScope connections";
        case ImportFormat::UrlList:
            return "list of URLs";
    }
    return "unknown";
}

std::string_view topologyName(Topology topology) {
    switch (topology) {
        case Topology::Standalone:
            return "standalone";
        case Topology::Cluster:
            return "cluster";
        case Topology::Sentinel:
            return "sentinel";
    }
    return "standalone";
}

}  // namespace lockscope::fleet
