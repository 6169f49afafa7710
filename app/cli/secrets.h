#pragma once
// Keeping passwords out of sight. A password given as an argument (-a, --pass, or inside a
// -u/--url/--live URL) is visible to every user in `ps` and /proc/PID/cmdline for the life of
// the process: once parsed, it is overwritten in place, and a warning says so (as redis-cli
// warns). --askpass reads it from the terminal without echo instead; REDISCLI_AUTH from the
// environment.

#include <string>

namespace lockscope::cli {

// Overwrites, in argv itself, every password the command line carries, with 'x's. Returns
// true when there was one. Call after the arguments were copied and parsed.
bool scrubPasswordsFromArgv(int argc, char** argv);

// Reads one line from the controlling terminal with echo off, after printing prompt on it.
// Throws UsageError when there is no terminal.
std::string askPassword(const char* prompt);

}  // namespace lockscope::cli
