#pragma once
// One watch engine for one connection, the same under the window, `lockscope-cli watch` and
// the exporter. Given a server, any node of a Redis Cluster or a Sentinel service, it finds
// the topology and watches each primary with a LockWatch of its own (or, with scanReplicas,
// a replica of it: each listed replica is tried in turn, the primary is read when none
// answers, and a replica is looked for again every replicaRetry). It follows failovers (a
// Sentinel's +switch-master or answer, a cluster's new shard primary after a lost node),
// hands a moved slot's locks to the new owner's watch with their history, retries a lost
// node with one backoff (500 ms doubling to 10 s) and reports everything as value-typed
// events (watch_event.h). The load budget and the sweep are each node's LockWatch's.
//
// Threads: a ServerWatch belongs to the thread that calls it, like LockWatch; its events are
// values. Not copyable.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/endpoint.h"
#include "lockscope/inspect/cluster/cluster_addressing.h"
#include "lockscope/inspect/liveness/liveness_reader.h"
#include "lockscope/inspect/lock_watch.h"
#include "lockscope/inspect/watch/watch_event.h"
#include "lockscope/sentinel.h"

namespace lockscope::inspect {

struct ServerWatchOptions {
    Endpoint endpoint;                       // a server or a cluster node (ignored with sentinel)
    std::optional<SentinelTarget> sentinel;  // behind Sentinel: the service's primary is watched
    ConnectionOptions connection;            // the data nodes'; the watch only reads
    ClusterAddressing clusterAddressing;
    bool scanReplicas = false;  // read a replica of each primary when one answers
    WatchOptions watch;
    std::chrono::milliseconds replicaRetry{10000};  // reading a primary: look for a replica again
    // A rescan's batch as it streams in, with the name of the node that read it (the watch's
    // own onRescanBatch does not say which node's watch calls it). Called on the engine's
    // thread, inside step().
    std::function<void(const std::string& node, std::vector<LockRecord>& batch,
                       const ScanProgress& progress)>
        onNodeRescanBatch;
    // Each connection a node's watch opens (to its primary, a replica, a new primary), before
    // its first command: a front end's command log observes it (Connection::setObserver).
    std::function<void(const std::string& node, Connection& connection)> onNodeConnection;
    // Is each lock's holder alive? Set: every node judges its rows with one LivenessReader on
    // the connection it reads (its own caps bound the reads), the rows carry the verdict
    // (LockRecord::liveness, the doctor's "orphaned") and a changed verdict is a changed row.
    std::optional<LivenessOptions> liveness;
};

// A node's watch as a front end shows it: its table, state and figures.
struct WatchedNode {
    std::string name;                  // Endpoint::display() of the server it was opened at
    std::string endpoint;              // the server it reads now (a replica, a new primary)
    std::string shard;                 // on a cluster: the shard's slots ("0-5460")
    const LockWatch* watch = nullptr;  // null until connected once
    NodeState state = NodeState::Connecting;
    std::string error;  // the last failure
    int pollsOk = 0, pollsFailed = 0;
    bool scanned = false;  // a first scan ended
    bool readsReplica = false;
};

class ServerWatch {
  public:
    // Checks the options (InvalidArgumentError); no I/O.
    explicit ServerWatch(ServerWatchOptions options);
    ~ServerWatch();
    ServerWatch(const ServerWatch&) = delete;
    ServerWatch& operator=(const ServerWatch&) = delete;

    // Finds the topology and connects to every node it watches. Throws the connection's
    // errors (a wrong address or password, an unknown Sentinel service), so a front end can
    // fail at once; later failures are events. Returns the events of the opening (notes).
    std::vector<WatchEvent> open();
    // One round: every node whose poll or retry is due reads, failovers are followed, moved
    // slots handed off. switched: a Sentinel announced a failover (checked by the round too).
    std::vector<WatchEvent> step(std::stop_token stop = {});
    // Between rounds: waits up to `wait` for keyspace notifications on every node.
    std::vector<WatchEvent> waitForEvents(std::chrono::milliseconds wait,
                                          std::stop_token stop = {});
    // When the next round is due (a poll interval after the last, or a node's retry).
    SteadyClock::time_point nextStepAt() const;

    // The next round rescans every node (the operator's Refresh).
    void requestRescan(bool fullSpeed = false);
    // New patterns for every node's watch at once; the next round rescans each node with
    // them. Throws InvalidArgumentError for a bad pattern, changing nothing.
    std::vector<WatchEvent> setPatterns(const std::vector<std::string>& patterns);
    // The keys a person sees now, on whichever node holds them.
    void setFocus(const std::vector<std::string>& keys);
    // A new load budget for every node's watch at once, kept by the watches a node opens
    // later; the rows and their history stay. Throws InvalidArgumentError outside (0, 1],
    // changing nothing.
    void setBudget(double share);
    // New judging rules for every node's watch at once, kept by the watches a node opens
    // later; the rows and their history stay. The events carry what a view must change now
    // (findings that moved, ordinary keys dropped); ordinary keys now kept come with the next
    // round's rescan.
    std::vector<WatchEvent> setJudging(const WatchJudging& judging);

    std::vector<WatchedNode> nodes() const;
    // The watch of the node named `node` (WatchedNode::name), null when none or not connected
    // yet: a front end on the engine's thread shares its records (LockWatch::share).
    LockWatch* watchOf(const std::string& node);
    bool isCluster() const;
    const ServerWatchOptions& options() const { return options_; }

  private:
    struct Impl;
    ServerWatchOptions options_;
    std::unique_ptr<Impl> impl_;
};

}  // namespace lockscope::inspect
