#pragma once
// Discover: finds the locks the watched patterns miss (redis-py's default lock names have no
// prefix, so "lock:*" never shows them). A paced SCAN of the whole keyspace keeps only
// lock-shaped keys (lock_shape.h) and proposes the patterns that would cover them, most keys
// first, leaving out what the current patterns already cover. On a Redis Cluster every shard
// is scanned (its primary, or an online replica with scanReplicas), one after the other; a
// node that cannot be read, or slots no primary serves, make the result partial (complete()
// false), and a partial result never claims that nothing is missing.

#include <chrono>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/lock_record.h"
#include "lockscope/inspect/scanner.h"

namespace lockscope::inspect {

struct DiscoverOptions {
    std::vector<std::string> currentPatterns;  // covered keys are counted, not proposed
    double maxLoad = 0.25;                     // share of the server's time (Pacer)
    int count = 500;                           // SCAN COUNT
    std::size_t maxExamples = 3;               // example keys kept per proposal
    bool scanReplicas = false;  // a cluster: read an online replica of each shard (READONLY)
};

struct PatternProposal {
    std::string pattern;                // a SCAN MATCH pattern, e.g. "job-lock:*"
    std::uint64_t keys = 0;             // lock-shaped keys it covers
    std::vector<std::string> kinds;     // the lock kinds seen under it
    std::vector<std::string> examples;  // a few of its keys
};

// A cluster node whose keys were not read: its slots' locks are unknown.
struct UnscannedNode {
    std::string address;     // host:port as announced
    std::string slotRanges;  // "0-5460"
    std::string error;       // why (unreachable, denied...)
};

struct DiscoverResult {
    std::vector<PatternProposal> proposals;  // most keys first
    std::uint64_t keysScanned = 0;
    std::uint64_t lockShaped = 0;
    std::uint64_t alreadyCovered = 0;  // lock-shaped keys the current patterns match
    bool cancelled = false;
    std::vector<std::string> notes;
    // The servers read, "host:port" (a cluster's: "host:port (slots 0-5460)"), in slot order.
    std::vector<std::string> nodesScanned;
    std::vector<UnscannedNode> unscanned;
    std::string slotsWithoutPrimary;  // a cluster's slots no primary serves: "" when none

    // Every key was read: only then may "no lock outside the patterns" be said.
    bool complete() const { return !cancelled && unscanned.empty() && slotsWithoutPrimary.empty(); }
};

// The pattern proposed for one key: its prefix up to the first ':' (or '{', or failing
// those the first '-', '_' or '.') followed by '*'; a key with none of these is its own
// pattern, with glob characters escaped.
std::string proposePattern(std::string_view key);
// Redis's glob match (stringmatchlen) for *, ?, [...] and \ escapes.
bool globMatch(std::string_view pattern, std::string_view key);

// The one server connected to (a cluster node alone: its own keys only).
DiscoverResult discover(Connection& connection, const DiscoverOptions& options = {},
                        std::stop_token stop = {},
                        const std::function<void(const ScanProgress&)>& onProgress = {});

// The server behind the router, or on a cluster every shard. Progress counts the keys of
// every node scanned so far. Throws only what asking the seed for the topology throws; a
// node that cannot be read is listed in unscanned.
DiscoverResult discover(ClusterRouter& router, const DiscoverOptions& options = {},
                        std::stop_token stop = {},
                        const std::function<void(const ScanProgress&)>& onProgress = {});

}  // namespace lockscope::inspect
