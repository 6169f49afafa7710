#pragma once
// What the liveness reads cost the server, for the watch's load budget. Their round trips
// (wall time) bound it from above, but loosely: the holder-record reads are pipelined HMGETs
// whose wall time is mostly the network and this process parsing replies (the bench measured
// wall about 4x the server's time), so charging wall time slowed the watch's re-reads more
// than needed. The server's own account (INFO commandstats: usec per command) is read at most
// every `every` and turned into a calibration: server usec of the liveness reads' commands
// per nanosecond of their wall time since the last reading. Each pass is charged its wall time
// times that ratio, never more than its wall time (other clients' calls of the same commands
// can only raise the ratio, which is capped at 1). Until the first reading, and where INFO is
// denied, the charge is the wall time, as before. Internal to lockscope_inspect.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "lockscope/connection.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

class LivenessCost {
  public:
    explicit LivenessCost(std::chrono::milliseconds every = std::chrono::seconds(10))
        : every_(every) {}

    // The charge for liveness reads that took `wall`; may read INFO commandstats on the
    // connection (its cadence is due), which is then part of what it returns.
    std::chrono::nanoseconds charge(Connection& connection, std::chrono::nanoseconds wall,
                                    SteadyClock::time_point now);

    // The server time per wall time the last calibration found (1 before any).
    double ratio() const { return ratio_; }

    // The usec= sum of the liveness reads' commands in an INFO commandstats text (those the
    // watch's own probe does not count already).
    static std::uint64_t livenessCommandsUsec(std::string_view info);

  private:
    std::optional<std::uint64_t> readUsec(Connection& connection);

    std::chrono::milliseconds every_;
    double ratio_ = 1.0;
    bool unavailable_ = false;
    std::optional<std::uint64_t> lastUsec_;
    std::chrono::nanoseconds wallSince_{0};  // the reads' wall time since lastUsec_
    SteadyClock::time_point nextAt_{};
};

}  // namespace lockscope::inspect
