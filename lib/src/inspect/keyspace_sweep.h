#pragma once
// The watcher's cheap search for new keys: a names-only SCAN (MATCH each pattern) that goes on
// where it stopped, a few rounds per step, so finding new locks in a keyspace of millions costs
// a bounded share of the server instead of a full annotated rescan every few seconds. Only
// keys the caller does not know yet are returned; the caller reads those.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/connection.h"

namespace lockscope::inspect {

class KeyspaceSweep {
  public:
    using IsKnown = std::function<bool(std::string_view key)>;

    KeyspaceSweep(std::vector<std::string> patterns, int count);

    // Sends up to `rounds` SCAN calls, going on from the last cursor; returns the keys
    // isKnown() rejects. passDone is set when the last pattern's cursor came back to 0.
    std::vector<std::string> advance(Connection& connection, int rounds, const IsKnown& isKnown,
                                     bool& passDone);
    bool inPass() const { return inPass_; }
    // Starts the next pass from the beginning (after a full rescan or a reconnect).
    void restart();

  private:
    std::vector<std::string> patterns_;
    std::string count_;
    std::size_t pattern_ = 0;
    std::string cursor_ = "0";
    bool inPass_ = false;
};

}  // namespace lockscope::inspect
