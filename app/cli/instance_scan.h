#pragma once
// Scanning every server named on the command line, one after another, each on its own
// read-only connection: records with doctor findings, the server's facts, and the error of
// a server that could not be read (the others are still shown).

#include <chrono>
#include <functional>
#include <optional>
#include <stop_token>
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
    int errorExit = 0;        // the exit code the error maps to
    bool cancelled = false;   // stopped early (Ctrl+C): its records are partial
    std::size_t servers = 1;  // the servers this scan read: a cluster's nodes behind one URL
};

// A stop request (Ctrl+C) ends the scan in progress cleanly and marks it cancelled; the
// servers not reached yet are marked cancelled without being read.
std::vector<InstanceScan> scanInstances(const InspectorFlags& flags, std::stop_token stop = {});

// Receives one annotated batch of one server's records (doctor findings set). It is called
// from the scanning threads, several at once: it must serialise its own output. While it
// runs, that server's scan waits, so a slow sink holds memory to a batch per server.
using RecordSink = std::function<void(std::vector<inspect::LockRecord>& batch)>;

// Scans every server at once, one thread and read-only connection each, handing each batch
// to sink as it is annotated: nothing is collected, so memory stays bounded whatever the
// keyspace. The returned scans carry facts, notes and errors, not records. A stop request
// ends every scan cleanly (in-flight replies drained) and marks it cancelled.
std::vector<InstanceScan> streamInstances(const InspectorFlags& flags, const RecordSink& sink,
                                          std::stop_token stop = {});

// Watches every server for `observe` (re-reading every interval) before judging, so the
// findings that need history (renewals past the TTL) can show. A stop request ends the
// observation early: what was read so far is judged, and every scan is marked cancelled.
std::vector<InstanceScan> observeInstances(const InspectorFlags& flags,
                                           std::chrono::milliseconds observe,
                                           std::chrono::milliseconds interval,
                                           std::stop_token stop = {});

// The worst exit code among the instances (0 when every one was read).
int exitCodeOf(const std::vector<InstanceScan>& scans);

// The exit code for a core error (as main() maps it).
int exitCodeFor(const Error& error);

}  // namespace lockscope::cli
