#pragma once
// The connection and scan flags every inspector subcommand shares, like redis-cli's:
//   -h HOST -p PORT -a PASSWORD --user USER -n DB, or -u URL (repeatable, one per server),
//   --pattern GLOB (repeatable), --read-only, --json, --max-load SHARE, --audit-log PATH.
// REDISCLI_AUTH supplies the password when -a is not given, as for redis-cli.

#include <string>
#include <vector>

#include "cli_command.h"
#include "lockscope/connection.h"
#include "lockscope/endpoint.h"
#include "lockscope/inspect/scan_options.h"

namespace lockscope::cli {

struct InspectorFlags {
    std::vector<Endpoint> endpoints;  // at least one
    bool readOnly = false;
    bool json = false;
    inspect::ScanOptions scan;
    std::string auditLogPath;
};

// Value flags of the shared set plus the command's own.
std::vector<std::string> inspectorValueFlags(std::vector<std::string> own = {});
// Every flag name of the shared set plus the command's own (for Arguments::allowOnly).
std::vector<std::string> inspectorFlagNames(std::vector<std::string> own = {});

// Throws UsageError naming the bad flag.
InspectorFlags parseInspectorFlags(const Arguments& args);

// One line per shared flag, for --help.
const char* inspectorFlagsHelp();

// Connection options for a command: read-only when asked, or always for commands that only read.
ConnectionOptions connectionOptions(const InspectorFlags& flags, bool onlyReads);

// Parses a whole number in [min, max] or throws UsageError naming the flag.
long long parseNumberFlag(const std::string& flag, const std::string& text, long long min,
                          long long max);

}  // namespace lockscope::cli
