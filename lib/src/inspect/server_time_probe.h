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

    // One reading of both accounts the server gives (one INFO where the server takes two
    // sections, Redis 7): the usec of the watch's commands, and the server's whole CPU time
    // (INFO cpu, user + sys). Each bounds the watch's cost from above: commandstats counts
    // wall time inside each command, which a loaded machine inflates (SCAN measured 1.9 ms a
    // call under load, 0.95 ms alone); the CPU time counts every client and the server's
    // housekeeping, but never a preemption. The watch charges itself the smaller difference.
    struct Reading {
        std::uint64_t commandsUsec = 0;
        std::optional<std::uint64_t> cpuUsec;
    };
    std::optional<Reading> sample(Connection& connection);

    // used_cpu_sys + used_cpu_user in an INFO cpu text, in microseconds; nullopt without them.
    static std::optional<std::uint64_t> cpuUsec(std::string_view info);

    // The sum of usec= over the watch's commands in an INFO commandstats text.
    static std::uint64_t watchCommandsUsec(std::string_view info);

  private:
    bool unavailable_ = false;
    bool twoSections_ = true;  // until the server refuses INFO with two sections (Redis 6)
};

}  // namespace lockscope::inspect
