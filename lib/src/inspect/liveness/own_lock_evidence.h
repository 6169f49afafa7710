#pragma once
// LockScope's own lock (kind Guide, lock:{name}) says who holds it: the library writes the
// hash holder:{name} inside its acquire script (LockOptions::holder) with the token, host,
// pid, thread, since, purpose and the name of its connection (lockscope:<host>:<pid> unless
// the user named it). These are the reads of that hash and the words for it; nothing in it
// is trusted beyond what it can show (a hash for another token, junk fields: unknown).
// Internal to lockscope_inspect.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect::liveness {

inline constexpr std::string_view kHolderPrefix = "holder:";

// holder:{<the lock's hash tag>}: the same Cluster slot as the lock. Empty when the key has
// no hash tag (not the library's key).
std::string holderKeyOf(const LockRecord& record);

struct OwnHolder {
    bool read = false;  // false: whyNot says why
    std::string whyNot;
    bool exists = false;
    std::string token, host, thread, purpose, connection;
    std::optional<std::int64_t> pid, sinceMs;
    std::string malformed;  // what is not as the library writes it
    // The name the library gives its connection: "lockscope:<host>:<pid>".
    std::string ownConnectionName() const;
};

// The holder records of many locks in one round trip per `chunk` keys: HMGET of the fields
// the library writes (bounded, whatever else the hash holds) and EXISTS, pipelined. A list
// of thousands of locks costs a few round trips, not one per lock.
std::vector<OwnHolder> readOwnHolders(Connection& connection,
                                      const std::vector<std::string>& holderKeys,
                                      std::size_t chunk = 500);

// "held by pid 4242 on host 'build-7', thread 'report', for 'nightly report', since ...".
std::string describeOwnHolder(const OwnHolder& holder);

}  // namespace lockscope::inspect::liveness
