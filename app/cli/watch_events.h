#pragma once
// watch --json: one JSON line per change, for scripts and alerting.
//   {"event":"added", ...the whole record as list --json prints it}
//   {"event":"changed","instance":...,"key":...,"changed":{field: new value, ...}}
//   {"event":"removed","instance":...,"key":...,"reason":"deleted"|"expired"|"server restarted"|
//    "connection lost"} (gone while the connection was down: deleted or expired, unknown which)
//   {"event":"server_restarted","instance":...,"note":...} before the removals it explains
//   {"event":"disconnected","instance":...,"error":...} / {"event":"reconnected",...}
//   {"event":"moved","instance":...,"key":...}: a cluster slot moved; the lock is "added" under
//    the new owner's instance in the same round, and {"event":"topology","change":...} says why
// "liveness" (as list --json prints it) is in "added", and in "changed" when the holder's
// verdict changed (alive → gone), with its evidence.
// A live countdown is not a change: pttl_ms counts only when it grew (a renewal) or a TTL
// appeared or went away.

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "lockscope/inspect/lock_watch.h"

namespace lockscope::cli {

class WatchEvents {
  public:
    explicit WatchEvents(std::string instance) : instance_(std::move(instance)) {}
    // Prints the events of one update to out, one line each.
    void print(std::FILE* out, const inspect::WatchUpdate& update);

  private:
    struct Known {
        nlohmann::json record;
        inspect::SteadyClock::time_point seenAt;
    };
    void printLine(std::FILE* out, const nlohmann::json& line);
    nlohmann::json changedFields(const Known& before, const nlohmann::json& now,
                                 inspect::SteadyClock::time_point at) const;

    std::string instance_;
    std::map<std::string, Known> known_;  // by the key's bytes
    bool connected_ = true;
};

}  // namespace lockscope::cli
