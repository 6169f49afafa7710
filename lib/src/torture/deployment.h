#pragma once
// The servers of a torture run and the faults that act on them: N redis primaries (each
// with a replica behind a replication proxy when failovers are planned), one proxy per
// worker per node so a worker's link can be delayed or cut on its own, and the actions the
// nemesis takes: restart a node without persistence, hold replication back and promote the
// replica, make a node's expiry jump forward, stall a server.

#include <sys/types.h>

#include <chrono>
#include <memory>
#include <vector>

#include "lockscope/proxy/loopback_proxy.h"
#include "lockscope/sandbox/local_redis_server.h"

namespace lockscope::torture {

class Deployment {
  public:
    Deployment(int nodes, int workers, bool replicas);
    ~Deployment();

    int nodes() const { return static_cast<int>(nodes_.size()); }
    std::vector<int> workerPorts(int worker) const;  // this worker's proxies, one per node
    std::vector<pid_t> serverPids() const;

    void stopPrimary(int node);      // the restart's first half: the lock is gone with it
    void startPrimary(int node);     // back, empty (no persistence), still the primary
    void holdReplication(int node);  // writes to the primary stop reaching the replica
    void promoteReplica(int node);   // the replica becomes the primary; the old one follows it
    // Emulates a clock jump on the node: every key's remaining TTL shrinks by `by`, keys
    // with less left expire (libfaketime cannot be preloaded into Debian's jemalloc build).
    void jumpClock(int node, std::chrono::milliseconds by);
    void stallServer(int node, std::chrono::milliseconds length);  // CLIENT PAUSE … ALL
    void delayWorker(int worker, std::chrono::milliseconds delay);
    void partitionWorker(int worker, bool partitioned);

  private:
    struct Node {
        std::unique_ptr<LocalRedisServer> primary, replica;
        std::unique_ptr<LoopbackProxy> replicationLink;  // replica → primary
    };
    void command(LocalRedisServer& server, std::initializer_list<std::string_view> argv);

    std::vector<Node> nodes_;
    std::vector<std::vector<std::unique_ptr<LoopbackProxy>>> proxies_;  // [worker][node]
};

}  // namespace lockscope::torture
