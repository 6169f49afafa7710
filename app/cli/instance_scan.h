#pragma once
// Scanning every server named on the command line, one after another, each on its own
// read-only connection: records with doctor findings, the server's facts, and the error of
// a server that could not be read (the others are still shown).

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "connection_flags.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/server_facts.h"

namespace lockscope::cli {

struct InstanceScan {
    Endpoint endpoint;
    std::vector<inspect::LockRecord> records;  // sorted by key
    inspect::ServerFacts facts;
    std::vector<std::string> notes;  // degradations, denied probes
    std::optional<std::string> error;
    int errorExit = 0;  // the exit code the error maps to
};

std::vector<InstanceScan> scanInstances(const InspectorFlags& flags);

// Watches every server for `observe` (re-reading every interval) before judging, so the
// findings that need history (renewals past the TTL) can show.
std::vector<InstanceScan> observeInstances(const InspectorFlags& flags,
                                           std::chrono::milliseconds observe,
                                           std::chrono::milliseconds interval);

// The worst exit code among the instances (0 when every one was read).
int exitCodeOf(const std::vector<InstanceScan>& scans);

// The exit code for a core error (as main() maps it).
int exitCodeFor(const Error& error);

}  // namespace lockscope::cli
