#pragma once
// Scans every primary of a cluster at once, one thread and one connection per node (or one
// replica per shard, with READONLY, when asked: no scan load on the primaries). Progress and
// cancel cover the whole cluster; a node that cannot be read is reported with its slot
// ranges while the others' locks are returned. Each key is listed once, also when its slot
// moved during the scan: slots that were migrating or changed owner are read again, key by
// key, from the old owner and then the new one. On a plain server it is the usual scan.

#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/scanner.h"

namespace lockscope::inspect {

struct NodeScanReport {
    ClusterNode node;        // the node scanned (a replica with scanReplicas)
    std::string instance;    // the endpoint connected to (Endpoint::display())
    std::string slotRanges;  // the slots of its shard, "0-5460"
    ScanProgress progress;
    bool done = false;
    std::optional<std::string> error;  // unreachable, denied...: its slots are not shown
    ErrorKind errorKind = ErrorKind::Reply;
    std::vector<std::string> notes;
    std::int64_t replicaLagBytes = -1;  // a replica: its primary's offset minus its own
};

struct ClusterScanOptions {
    ScanOptions scan;
    bool scanReplicas = false;
};

struct ClusterScanResult {
    // The locks, in parts: one per entry of `nodes` (what that node's scan found, in scan
    // order), then one with the keys of the slots that moved during the scan, read again.
    // Each key once across the parts. Kept apart rather than joined, so a million records are
    // not moved once more (the CLI hands each part to its node whole).
    std::vector<std::vector<LockRecord>> parts;
    std::vector<NodeScanReport> nodes;
    std::vector<std::string> events;  // topology changes seen during the scan
    std::uint64_t slotsReread = 0;    // slots read again because they moved during the scan
    bool cancelled = false;

    std::size_t lockCount() const;
};

// Called from the scanning threads (one at a time) with every node's progress.
using ClusterProgressCallback = std::function<void(const std::vector<NodeScanReport>&)>;

// Throws only when no node at all can be asked for the topology.
ClusterScanResult scanCluster(ClusterRouter& router, const ClusterScanOptions& options,
                              const ClusterProgressCallback& onProgress = {},
                              std::stop_token stop = {});

}  // namespace lockscope::inspect
