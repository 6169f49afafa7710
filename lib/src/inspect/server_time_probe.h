#pragma once
// The server's own account of the time it spent on the commands a watcher sends (INFO
// commandstats: usec per command), where INFO is allowed. Differences between two readings
// are the server time of those commands in between, the watcher's and any other client's
// of the same commands: an upper bound far closer than a round trip on a loaded client,
// which also counts the network and the client's own scheduling.

#include <cstdint>
#include <optional>
#include <string_view>

#include "lockscope/connection.h"

namespace lockscope::inspect {

class ServerTimeProbe {
  public:
    // Microseconds the server has spent on the watch's commands since it started; nullopt
    // when INFO commandstats is denied or unreadable (then never asked again).
    std::optional<std::uint64_t> read(Connection& connection);

    // The sum of usec= over the watch's commands in an INFO commandstats text.
    static std::uint64_t watchCommandsUsec(std::string_view info);

  private:
    bool unavailable_ = false;
};

}  // namespace lockscope::inspect
