#pragma once
// CLIENT LIST, read rarely: it costs the server O(clients), so one read serves every lock of
// a pass (refreshed at most every `every`), and only the named connections are kept (the job
// queues find their workers by name, as BullMQ's and Bull's getWorkers() do). Where ACL or a
// managed service denies CLIENT, the snapshot says why and the verdicts stay unknown.
// Internal to lockscope_inspect.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/liveness/holder_verdict.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect::liveness {

struct ClientEntry {
    std::string id;
    std::string addr;
    std::string name;
    std::int64_t ageSeconds = 0;
    std::int64_t idleSeconds = 0;
};

// The named connections in CLIENT LIST's text; `total` counts every line. Lines without
// id= are skipped (a reply that is not CLIENT LIST's).
std::vector<ClientEntry> parseClientList(std::string_view text, std::size_t* total = nullptr);

struct ClientListSnapshot {
    bool read = false;   // false: whyNot says why (denied, renamed, failed)
    std::string whyNot;  // "CLIENT LIST is denied to this user (NOPERM ...)"
    std::vector<ClientEntry> named;
    std::size_t total = 0;
    WallClock::time_point at;
    SteadyClock::time_point steadyAt;
};

class ClientListReader {
  public:
    ClientListReader(Connection& connection, std::chrono::milliseconds every)
        : connection_(connection), every_(every) {}

    // The last snapshot, read again when it is older than `every` (or never read).
    const ClientListSnapshot& current();
    // Reads now whatever the age (a confirmation before saying gone).
    const ClientListSnapshot& refresh();
    std::uint64_t reads() const { return reads_; }

  private:
    Connection& connection_;
    std::chrono::milliseconds every_;
    ClientListSnapshot snapshot_;
    bool everRead_ = false;
    std::uint64_t reads_ = 0;
};

}  // namespace lockscope::inspect::liveness
