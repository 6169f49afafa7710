#pragma once
// Live mode's replication: each of the World's replication links is a real replica
// (REPLICAOF) reaching its real primary through a ReplicationGate, and the gate lets a
// write through exactly when the model delivers it. Positions in the gate's stream come
// from the primary's own replication offset (INFO), not from what the relay thread has
// happened to read yet, so a busy machine cannot move a write to the wrong side of a hold.
// A failover cuts the old primary's links (what they held is lost, as the model says),
// promotes the replica with REPLICAOF NO ONE and points the other replicas at it.

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/sim/world.h"
#include "replication_gate.h"

namespace lockscope::sim {

class ReplicaLinks {
  public:
    // admin: one connection per node (never an actor's), ports: each node's port.
    ReplicaLinks(std::vector<Connection*> admin, std::vector<int> ports);

    // Makes `to` a real replica of `from` and waits until its link is up and idle.
    void connect(int from, int to);
    // A write is about to reach node: its replicas hold the stream from here on.
    // seqBefore: World::seq before the command (its in-flight writes get later numbers).
    void markWrite(int node, std::uint64_t seqBefore);
    // Lets through on each link what the model delivered; a delivery is on the replica
    // before this returns.
    void follow(const World& world);
    // The model just failed over from oldPrimary to world.primary: do it for real.
    void failover(const World& world, int oldPrimary);

  private:
    struct Mark {
        std::uint64_t seqBefore = 0;  // World::seq before the write
        std::uint64_t position = 0;   // the gate's stream position before the write
    };
    struct Link {
        int from = 0, to = 0;
        std::unique_ptr<ReplicationGate> gate;
        std::deque<Mark> marks;
        std::int64_t baseOffset = 0;          // the primary's offset when...
        std::uint64_t basePosition = 0;       // ...the gate's stream was here
        std::optional<std::uint64_t> oldest;  // the oldest write in flight after the last step
    };
    void waitForLinkUp(int replica);
    void takeBaseline(Link& link);
    std::int64_t offsetOf(int node);
    std::uint64_t position(const Link& link, std::int64_t primaryOffset) const;
    void deliver(Link& link, std::uint64_t position);

    std::vector<Connection*> admin_;
    std::vector<int> ports_;
    std::vector<Link> links_;
};

}  // namespace lockscope::sim
