#pragma once
// LockScope's own connections file: {"format": "lockscope-connections", "version": 1,
// "connections": [{name, group, topology, host, port (behind Sentinel: the first Sentinel), db,
// user, sentinels, service, sentinel_user, tls: {enabled, ca_file, ca_dir, cert_file, key_file,
// server_name, insecure}, read_only, patterns}]}.

#include <cstddef>

#include <nlohmann/json.hpp>

#include "lockscope/fleet/connection_import.h"

namespace lockscope::fleet::detail {

inline constexpr const char* kLockScopeFormat = "lockscope-connections";

bool isLockScopeFile(const nlohmann::json& file);
ImportEntry readLockScopeEntry(const nlohmann::json& item, std::size_t position);

}  // namespace lockscope::fleet::detail
