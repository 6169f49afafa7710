#pragma once
// Follows keyspace notifications for the watched patterns on a connection of its own
// (PSUBSCRIBE __keyspace@<db>__:<pattern>), so a watcher hears of a new, deleted or expired
// lock at once instead of at the next poll. Only useful when the server publishes them
// (ServerFacts::keyspaceEvents == Enabled); LockScope never turns them on.

#include <chrono>
#include <string>
#include <vector>

#include "lockscope/connection.h"

namespace lockscope::inspect {

class KeyspaceFollower {
  public:
    // Takes a connection for itself (it enters subscriber mode). Throws PermissionError when
    // PSUBSCRIBE is denied and the connection's IoErrors.
    KeyspaceFollower(Connection subscriber, const std::vector<std::string>& patterns);

    // Waits up to `wait` for notifications and returns the keys they name, each once, in
    // order of arrival (empty when none came). Throws IoError when the connection drops.
    std::vector<std::string> poll(std::chrono::milliseconds wait);

  private:
    Connection connection_;
    std::string channelPrefix_;  // "__keyspace@0__:"
};

}  // namespace lockscope::inspect
