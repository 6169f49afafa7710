#pragma once
// Writes each library's lock into a server with the commands its source sends, and runs
// redis-py for the formats whose real client runs here. Shared by the formats tests.

#include <functional>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/lock_record.h"

namespace formats_test {

inline const std::string kClientA = "6a7e3c2e-52a4-4d5c-9a1b-0c8d2e1f3a4b";
inline const std::string kClientB = "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9";
inline const std::string kDigest = "uniquejobs:6e47d668ad9db46c8e0a79c2d7f7e3c9";
inline const std::string kJid = "2f4a9c1e8b7d6a5f4e3d2c1b";

// Sends one command (to the one server, or to the cluster node that serves its key).
using Send = std::function<void(const std::vector<std::string>& command)>;

// A sidekiq-unique-jobs digest held by job `jid`, with the commands its lock.lua, queue.lua and
// lock_info send: the digest key, its entry in uniquejobs:digests, LOCKED, INFO and a
// queued job in QUEUED; digest, LOCKED and INFO expire in 10 minutes. On a cluster each
// command goes to its key's node (send decides).
void writeSidekiqDigest(const Send& send, const std::string& digest = kDigest,
                        const std::string& jid = kJid);

// One lock of every format (see the .cpp for the source of each command).
void writeEveryFormat(lockscope::Connection& c);

// All keys of the server (pattern "*"), sorted by key.
std::vector<lockscope::inspect::LockRecord> scanEverything(lockscope::Connection& c);

// Runs /usr/bin/python3 with redis-py; `r` is a redis.Redis on 127.0.0.1:port. Returns stdout;
// throws std::runtime_error when python fails.
std::string runPython(int port, const std::string& body);

}  // namespace formats_test
