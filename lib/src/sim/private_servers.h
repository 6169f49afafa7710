#pragma once
// Live mode for the multi-server stories: one private redis-server (LocalRedisServer) per
// World node on a free loopback port, the World's replication links as real replicas
// behind replication gates, and the server-side faults done for real where a process can
// do them: a failover is REPLICAOF NO ONE on the promoted replica after the old primary's
// links are cut; a clock jump cannot be done to a process and is emulated by shortening
// the TTLs on that node by the jump (what the jumped clock does to their expiry).

#include <memory>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"
#include "lockscope/sim/live_redis_backend.h"
#include "lockscope/sim/simulator.h"
#include "replica_links.h"

namespace lockscope::sim {

class PrivateServers final : public LiveServerEvents {
  public:
    // Starts the servers and replicas of world; the World must outlive this.
    PrivateServers(const World& world, int realMsPerVirtualSecond);
    ~PrivateServers() override;

    // One backend per World node, for LiveBackends::redis.
    std::vector<KeyValueBackend*> backends();
    // "A 127.0.0.1:41234 (primary)", one line per node.
    std::vector<std::string> describe() const;

    void failedOver(const World& world, int oldPrimary) override;
    void clockJumped(const World& world, const ClockJumpFault& jump) override;
    void stepDone(const World& world) override;

  private:
    class Node;
    const World& world_;
    int scale_;
    std::vector<std::unique_ptr<Node>> nodes_;
    std::unique_ptr<ReplicaLinks> links_;
};

}  // namespace lockscope::sim
