#pragma once
// Discover: finds the locks the watched patterns miss (redis-py's default lock names have no
// prefix, so "lock:*" never shows them). A paced SCAN of the whole keyspace keeps only
// lock-shaped keys (lock_shape.h) and proposes the patterns that would cover them, most keys
// first, leaving out what the current patterns already cover.

#include <chrono>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/scanner.h"

namespace lockscope::inspect {

struct DiscoverOptions {
    std::vector<std::string> currentPatterns;  // covered keys are counted, not proposed
    double maxLoad = 0.25;                     // share of the server's time (Pacer)
    int count = 500;                           // SCAN COUNT
    std::size_t maxExamples = 3;               // example keys kept per proposal
};

struct PatternProposal {
    std::string pattern;                // a SCAN MATCH pattern, e.g. "job-lock:*"
    std::uint64_t keys = 0;             // lock-shaped keys it covers
    std::vector<std::string> kinds;     // the lock kinds seen under it
    std::vector<std::string> examples;  // a few of its keys
};

struct DiscoverResult {
    std::vector<PatternProposal> proposals;  // most keys first
    std::uint64_t keysScanned = 0;
    std::uint64_t lockShaped = 0;
    std::uint64_t alreadyCovered = 0;  // lock-shaped keys the current patterns match
    bool cancelled = false;
    std::vector<std::string> notes;
};

// The pattern proposed for one key: its prefix up to the first ':' (or '{', or failing
// those the first '-', '_' or '.') followed by '*'; a key with none of these is its own
// pattern, with glob characters escaped.
std::string proposePattern(std::string_view key);
// Redis's glob match (stringmatchlen) for *, ?, [...] and \ escapes.
bool globMatch(std::string_view pattern, std::string_view key);

DiscoverResult discover(Connection& connection, const DiscoverOptions& options = {},
                        std::stop_token stop = {},
                        const std::function<void(const ScanProgress&)>& onProgress = {});

}  // namespace lockscope::inspect
