#pragma once
// Connections imported from the files operators already have: RedisInsight's database export
// (JSON), Another Redis Desktop Manager's export (`connections.ano`, base64 of JSON), RESP.app's
// `connections.json`, LockScope's own export, and a plain list of redis:// / rediss:// URLs.
//
// A file is read whole or refused whole (not a connections file, too big, too many entries);
// inside a readable file every entry is judged on its own: imported, imported with notes
// (something it asked for is not carried over, e.g. an SSH tunnel), or failed with the reason.
// Nothing is dropped without a note. Secrets travel apart from the connection so that no profile
// ever holds one: the window hands them to the keychain.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/endpoint.h"
#include "lockscope/sentinel.h"

namespace lockscope::fleet {

enum class Topology { Standalone, Cluster, Sentinel };

// PEM text that an export embeds instead of naming a file (RedisInsight keeps certificates in
// its own database): whoever stores the connection writes it to a private file first.
struct EmbeddedPem {
    std::string ca, cert, key;
    bool empty() const { return ca.empty() && cert.empty() && key.empty(); }
};

// A connection as files carry it between tools (imported here, exported by
// connection_export.h).
struct PortableConnection {
    std::string name;
    std::string group;  // the folder it came from, when the source has one
    // Host, port, db, ACL user and TLS paths. `endpoint.password` is always empty: see below.
    // Behind Sentinel, the data nodes' user, db and TLS (the host comes from the Sentinels).
    Endpoint endpoint;
    Topology topology = Topology::Standalone;
    std::vector<SentinelAddress> sentinels;  // Topology::Sentinel: the Sentinels to ask
    std::string sentinelService;             // and the monitored primary's name
    EmbeddedPem pem;
    bool readOnly = false;
    std::vector<std::string> patterns;  // lock key patterns (LockScope's own export only)
    std::string sentinelUser;  // the Sentinels' ACL user (endpoint.user is the data nodes')
    // Secrets, never written into a profile.
    std::string password;          // the data nodes'
    std::string sentinelPassword;  // the Sentinels'
};

enum class EntryStatus { Imported, ImportedWithNotes, Failed };

struct ImportEntry {
    std::size_t position = 0;  // 1-based, as a person counts entries in the file
    EntryStatus status = EntryStatus::Failed;
    std::optional<PortableConnection> connection;  // absent when Failed
    std::vector<std::string> notes;                // what was changed or left out, or why it failed
};

enum class ImportFormat { RedisInsight, AnotherRedisDesktopManager, RespApp, LockScope, UrlList };

struct ImportReport {
    ImportFormat format = ImportFormat::UrlList;
    std::vector<ImportEntry> entries;
    std::size_t count(EntryStatus status) const;
};

inline constexpr std::size_t kMaxImportBytes =
    std::size_t{10} * 1024 * 1024;  // as RedisInsight allows
inline constexpr std::size_t kMaxImportEntries = 10'000;

// Reads a connections file's contents. Throws InvalidArgumentError naming what is wrong with
// the file as a whole: empty, binary, over kMaxImportBytes, more than kMaxImportEntries entries,
// JSON that does not parse (with the byte where it stops), or no known shape.
ImportReport importConnections(std::string_view contents);

std::string_view formatName(ImportFormat format);
std::string_view topologyName(Topology topology);

}  // namespace lockscope::fleet
