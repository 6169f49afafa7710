#pragma once
// The shape of a Redis Cluster as one of its nodes reports it: which node serves which hash
// slots, primaries and their replicas, health and replication offsets. Asked with
// CLUSTER SHARDS (Redis 7) and, on older servers or where SHARDS is denied, CLUSTER SLOTS.
// A server with cluster support disabled is no cluster: discovery says so and the caller
// treats it as the single server it is.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/connection.h"

namespace lockscope::inspect {

constexpr int kClusterSlots = 16384;

struct SlotRange {
    int first = 0, last = 0;  // inclusive
    bool operator==(const SlotRange&) const = default;
};

enum class NodeRole : std::uint8_t { Primary, Replica };

struct ClusterNode {
    std::string id;    // the 40-character node id (empty when the server did not say)
    std::string host;  // as announced: the host name when the cluster prefers it, else the IP
    int port = 0;      // the client port (the TLS port on a TLS cluster)
    NodeRole role = NodeRole::Primary;
    std::string primaryId;  // a replica's primary
    std::vector<SlotRange>
        servedSlots;  // a primary's slots (its shard's); not "slots": a Qt keyword
    std::int64_t replicationOffset = -1;  // -1: not reported (CLUSTER SLOTS)
    std::string health = "online";        // online, failed, loading (CLUSTER SHARDS)

    std::string address() const { return host + ":" + std::to_string(port); }
    bool isPrimary() const { return role == NodeRole::Primary; }
    bool operator==(const ClusterNode&) const = default;
};

struct ClusterTopology {
    std::vector<ClusterNode> nodes;
    std::string source;  // "CLUSTER SHARDS" or "CLUSTER SLOTS"

    std::vector<const ClusterNode*> primaries() const;
    std::vector<const ClusterNode*> replicasOf(const ClusterNode& primary) const;
    // The replica to read instead of the primary (--scan-replicas): its first one that is not
    // failed; null when it has none.
    const ClusterNode* onlineReplicaOf(const ClusterNode& primary) const;
    // A replica's lag behind its primary in bytes of the replication stream, from the offsets
    // CLUSTER SHARDS reports (0 when it looks ahead: the offsets are heard at different
    // moments); -1 when either is unknown (CLUSTER SLOTS, or a replica whose offset the node
    // asked has not heard yet).
    static std::int64_t lagBytes(const ClusterNode& primary, const ClusterNode& replica);
    // The primary that serves the slot; null when no node does (a slot not covered).
    const ClusterNode* ownerOfSlot(int slot) const;
    const ClusterNode* byId(std::string_view id) const;
};

// Asks the connected node. nullopt: the server has cluster support disabled (a plain server).
// CLUSTER denied to the ACL user on both forms: nullopt too, with a note saying so. Throws the
// connection's IoErrors and ProtocolError for a reply of the wrong shape.
std::optional<ClusterTopology> discoverTopology(Connection& connection,
                                                std::vector<std::string>* notes = nullptr);

// "0-5460,7000,7002-7010": how a node's slots are shown to the operator.
std::string formatSlotRanges(const std::vector<SlotRange>& ranges);

// A redirection the server answered with: "MOVED 3999 127.0.0.1:6381" or "ASK ...". The
// message may carry a context in front (the connection's "EVALSHA on redis://...: ").
struct Redirection {
    bool ask = false;  // ASK: this one command goes to the importing node, after ASKING
    int slot = 0;
    std::string host;
    int port = 0;
};
std::optional<Redirection> parseRedirection(std::string_view errorMessage);

}  // namespace lockscope::inspect
