#pragma once
// What the scanner (and the watcher's rescans) look for and how much they read per key.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "lockscope/inspect/value_classifier.h"

namespace lockscope::inspect {

class FenceSource;  // cluster/fences_from_owners.h

struct ScanOptions {
    std::vector<std::string> patterns{"lock:*"};  // SCAN MATCH patterns, scanned one after another
    int count = 1000;                             // SCAN COUNT: keys the server visits per call
    std::size_t maxValueBytes = 512;              // longer string values are kept cut (truncated)
    std::size_t maxHashFields = 64;               // hash fields read per key (HSCAN ... COUNT)
    KeyLayout layout;                             // lock:{name} / fence:{name}
    // Share of the server's time the inspector may use, in (0, 1]. Below 1 the scanner
    // stops overlapping round trips and rests between them (see Pacer).
    double maxLoad = 1.0;
    // The whole scan's deadline (0: none): past it the scan stops with a TimeoutError, so a
    // server that never ends a SCAN cannot keep a listing running forever.
    std::chrono::milliseconds deadline{0};
    // Read on a Redis Cluster node: a fencing counter in another slot than its lock
    // (lock:name / fence:name) is not asked of this node (it would answer MOVED) but of
    // fencesElsewhere, the node that serves its slot; without one it is left unread for the
    // caller (scanCluster reads them once every node is scanned).
    bool clusterNode = false;
    std::shared_ptr<FenceSource> fencesElsewhere;
    // The name the records carry (LockRecord::instance); empty: the endpoint's display. Two
    // watches of one server (a window's connections with different patterns) name their
    // rows apart with it. A cluster node's records always carry the node's endpoint.
    std::string instanceName;
};

// Throws InvalidArgumentError for an empty pattern list, an empty or huge pattern, a COUNT
// outside 1..100000, or a load outside (0, 1].
void validate(const ScanOptions& options);

}  // namespace lockscope::inspect
