#pragma once
// What a lock publishes about its holder (LockOptions::holder): this process's host, pid and
// thread, and the name of its connection, so an inspector can tell whether the holder is
// still there. Internal to lockscope_core.

#include <string>
#include <vector>

#include "lockscope/connection.h"

namespace lockscope::detail {

// gethostname(), with the bytes CLIENT SETNAME refuses (spaces, control bytes) as '_'.
std::string holderHostName();
// "lockscope:<host>:<pid>", read afresh each time (a forked child has a pid of its own).
std::string ownConnectionName();
// The calling thread's name (pthread_getname_np), empty when it has none.
std::string currentThreadName();

// Names the connection ownConnectionName() unless the user already named it (their name is
// kept). Returns the name the connection has afterwards; empty when CLIENT is refused (ACL,
// a managed service). I/O errors propagate (the caller's next command would fail the same).
std::string nameConnection(Connection& connection);

// The holder hash's field/value pairs, as ARGV for the acquire script.
std::vector<std::string> holderFields(const std::string& token, const std::string& purpose,
                                      const std::string& connectionName);

}  // namespace lockscope::detail
