#pragma once
// LockScope's own connections file, which importConnections reads back: names, groups, where
// each server is, TLS file paths, read-only and the lock patterns. Never a secret: no password
// of either kind, no key passphrase, no embedded key.

#include <string>
#include <vector>

#include "lockscope/fleet/connection_import.h"

namespace lockscope::fleet {

std::string exportConnections(const std::vector<PortableConnection>& connections);

}  // namespace lockscope::fleet
