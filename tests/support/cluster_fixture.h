#pragma once
// A real Redis Cluster for tests and benches: 3 primaries (and a replica each when asked),
// `redis-server --cluster-enabled yes` on free loopback ports in temporary directories, the
// 16384 slots split in three with CLUSTER ADDSLOTSRANGE, joined with CLUSTER MEET, ready when
// every node says cluster_state:ok. Optionally TLS only (tls-cluster, tls-replication), and
// nodes that announce a host name nobody can resolve (a cluster behind NAT or in containers).
// Stopped when destroyed.

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/sandbox/local_redis_server.h"

namespace lockscope::testing {

struct ClusterFixtureOptions {
    int primaries = 3;
    // The last this many primaries join with no slots (a scale-out's new primary, before
    // any slot moves to it).
    int emptyPrimaries = 0;
    bool replicas = false;  // one replica per primary
    bool tls = false;       // every port (clients, bus, replication) speaks TLS only
    // Non-empty: node i announces "<prefix><i>.invalid" and the cluster reports host names
    // (cluster-preferred-endpoint-type hostname), so the announced addresses are unreachable.
    std::string unreachableHostPrefix;
    std::chrono::milliseconds nodeTimeout{1500};  // cluster-node-timeout: failover detection
    // With tls: node 0 announces "localhost" and the others kCertifiedNodeName, each with a
    // certificate for its announced name only (the test set's server and other-host ones),
    // and the cluster reports host names. Reached through an address map at 127.0.0.1, a
    // client must check each node's certificate against the name it announces.
    bool certifiedNames = false;
};

// The name the nodes after node 0 announce with certifiedNames (the other-host certificate's).
inline constexpr const char* kCertifiedNodeName = "db.example.com";

struct ClusterNodeProcess {
    std::unique_ptr<LocalRedisServer> server;
    std::string id;  // CLUSTER MYID
    int busPort = 0;
    int primaryIndex = -1;  // a replica: index of its primary in nodes(); -1 for a primary
    int firstSlot = 0, lastSlot = -1;  // a primary's slot range
};

class RedisCluster {
  public:
    explicit RedisCluster(ClusterFixtureOptions options = {});
    ~RedisCluster();
    RedisCluster(const RedisCluster&) = delete;
    RedisCluster& operator=(const RedisCluster&) = delete;

    // Primaries first (0..primaries-1), then their replicas in the same order.
    std::vector<ClusterNodeProcess>& nodes() { return nodes_; }
    ClusterNodeProcess& node(std::size_t i) { return nodes_.at(i); }
    // At 127.0.0.1; with certifiedNames, TLS checks the name node i announces.
    Endpoint endpoint(std::size_t i) const;
    std::string url(std::size_t i) const { return endpoint(i).display(); }
    // A connection to node i (TLS verified against the test CA when the cluster speaks TLS).
    Connection connect(std::size_t i) const;
    // The index of the primary that serves the key's slot as the fixture assigned it
    // (moveSlot does not change this answer).
    std::size_t primaryFor(std::string_view key) const;
    std::size_t primaryOfSlot(int slot) const;
    // Waits until every running node reports cluster_state:ok and agrees on slot owners.
    void waitUntilHealthy(std::chrono::milliseconds timeout = std::chrono::seconds(10));
    // Moves every key of the slot from the primary that owns it to primary `to`
    // (SETSLOT IMPORTING/MIGRATING, MIGRATE, SETSLOT NODE on both and the others).
    void moveSlot(int slot, std::size_t to);
    // The steps of moveSlot, for tests that act between them: mark the slot importing on
    // `to` and migrating on its owner; MIGRATE up to `count` of its keys (-1: all); give the
    // slot to `to` on every node.
    void beginSlotMove(int slot, std::size_t from, std::size_t to);
    void migrateKeys(int slot, std::size_t from, std::size_t to, int count = -1);
    void finishSlotMove(int slot, std::size_t to);

  private:
    void startNode(std::size_t index);
    void assignSlotsAndMeet();
    void attachReplicas();
    std::size_t runningReplicas() const;
    // How many live replicas a CLUSTER NODES listing names.
    static std::size_t replicaLines(const std::string& clusterNodes);

    ClusterFixtureOptions options_;
    std::vector<ClusterNodeProcess> nodes_;
};

}  // namespace lockscope::testing
