#pragma once
// Who holds a lock, decoded from what its format carries: redis-py's uuid1 token (time and
// node), ShedLock's value (time and host), Redisson's hash fields (client id and thread id,
// read or write mode), Spring's registry UUID, sidekiq-unique-jobs' LOCKED job ids, the
// members of a sorted-set lock (Symfony Lock's tokens and their expiries, redis-semaphore's
// ids and their last refresh). Computed on demand from a LockRecord (no I/O), so records
// stay small.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

// One holder of a sorted-set lock: a member and what its score says.
struct SetHolder {
    std::string id;  // Symfony: the holder's token; redis-semaphore: its identifier
    // Symfony: when this holder's lease ends; redis-semaphore: its last acquire or refresh.
    std::chrono::system_clock::time_point at;
    bool write = false;  // Symfony: the exclusive (write) holder, beside "__write__"
    // Past its lease (Symfony) or its lock timeout (redis-semaphore): the library drops it at
    // the next acquire, and it no longer counts as a holder.
    bool lapsed = false;
};

struct HolderFacts {
    // When the holder says it took the lock (its own wall clock: evidence, not proof).
    std::optional<std::chrono::system_clock::time_point> since;
    std::string host;      // ShedLock's host name, or redis-py's uuid1 node as a MAC address
    std::string clientId;  // Redisson's connection-manager UUID, Spring's registry UUID
    std::optional<std::uint64_t> threadId;  // Redisson: the holding thread
    std::string mode;                       // Redisson read/write lock: "read" or "write"
    std::size_t holders = 0;                // Redisson: holder fields (read locks share)
    std::vector<std::string> jobs;          // sidekiq-unique-jobs: the job ids in LOCKED
    std::vector<SetHolder> members;         // Symfony Lock, redis-semaphore's Semaphore

    bool empty() const {
        return !since && host.empty() && clientId.empty() && !threadId && mode.empty() &&
               jobs.empty() && members.empty();
    }
};

// now: the wall clock a sorted-set member's lease or refresh is judged against.
HolderFacts decodeHolder(const LockRecord& record, std::chrono::system_clock::time_point now =
                                                       std::chrono::system_clock::now());

// One line for a table cell or the CLI: "since 2026-12-01T00:35:31Z on build-7".
std::string describeHolder(const HolderFacts& facts);

// The pieces, exposed for tests.
// redis-py's uuid1().hex: the 60-bit timestamp (100 ns since 1582-10-15) and the node.
std::optional<std::chrono::system_clock::time_point> uuid1Time(std::string_view hex32);
std::string uuid1Node(std::string_view hex32);  // "aa:bb:cc:dd:ee:ff", empty if not uuid1
// yyyy-mm-ddThh:mm:ss[.fff...]Z (ShedLock's toIsoString); nullopt for anything else.
std::optional<std::chrono::system_clock::time_point> parseIsoInstant(std::string_view text);
std::string formatIsoInstant(std::chrono::system_clock::time_point t);  // ...T..:..:..Z

}  // namespace lockscope::inspect
