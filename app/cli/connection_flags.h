#pragma once
// The connection and scan flags every inspector subcommand shares, like redis-cli's:
//   -h HOST -p PORT -a PASSWORD --user USER -n DB, or -u URL (repeatable, one per server),
//   --pattern GLOB (repeatable), --read-only, --json, --max-load SHARE, --scan-deadline
//   DURATION, --audit-log PATH.
// REDISCLI_AUTH supplies the password when -a is not given, as for redis-cli; --askpass reads
// it from the terminal.

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "cli_command.h"
#include "lockscope/connection.h"
#include "lockscope/endpoint.h"
#include "lockscope/inspect/cluster/cluster_addressing.h"
#include "lockscope/inspect/scan_options.h"
#include "lockscope/sentinel.h"

namespace lockscope::cli {

struct InspectorFlags {
    std::vector<Endpoint> endpoints;  // at least one
    bool readOnly = false;
    bool json = false;
    inspect::ScanOptions scan;
    std::string auditLogPath;
    // Redis Cluster: how to reach nodes announced at unreachable addresses, and whether to
    // scan one replica per shard (READONLY) instead of the primaries.
    inspect::ClusterAddressing clusterAddressing;
    bool scanReplicas = false;
    // Behind Sentinel: endpoints[0] is the primary found at parse time; a watch asks again
    // when it fails over.
    std::optional<SentinelTarget> sentinel;
};

// The shared options, declared once: every inspector command and the top level (before the
// command) take them. Add a connection option here and every command has it.
std::vector<OptionSpec> inspectorOptionSpecs();

// Throws UsageError naming the bad flag.
InspectorFlags parseInspectorFlags(const Arguments& args);

// One line per shared flag, for the top-level --help.
std::string inspectorFlagsHelp();

// Connection options for a command: read-only when asked, or always for commands that only read.
ConnectionOptions connectionOptions(const InspectorFlags& flags, bool onlyReads);

// "20%" -> 0.2: a percentage with %, from 1% to 100%; UsageError for anything else.
double parseMaxLoad(const std::string& text);

// "30s", "2m", "500ms", "1h" or a bare number of seconds, in [min, max]; UsageError naming
// the flag for anything else (a fraction, a negative, an unknown unit, an overflow).
std::chrono::milliseconds parseDurationFlag(const std::string& flag, const std::string& text,
                                            std::chrono::milliseconds min,
                                            std::chrono::milliseconds max);

// Parses a whole number in [min, max] or throws UsageError naming the flag.
long long parseNumberFlag(const std::string& flag, const std::string& text, long long min,
                          long long max);

}  // namespace lockscope::cli
