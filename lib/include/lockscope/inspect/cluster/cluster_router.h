#pragma once
// Sends a key's reads and actions to the node that serves its slot, in a cluster or on a
// plain server (then every key goes to the one server). A MOVED answer refreshes the
// topology and retries once on the node it names; an ASK answer sends ASKING and then the
// command once more to the importing node. One connection per node, opened on first use.
// Whether the seed is part of a cluster is learned once, and only when needed: an action
// goes to the seed first and asks for the topology only when the seed answers MOVED, so a
// plain server never hears a CLUSTER command for it; a scan asks once (isCluster()).
// A watcher follows the topology with followTopology(): asked again only for a reason (a
// redirect, a lost node, CLUSTERDOWN) or every 30 s (topology_refresh_policy.h).
// Not thread-safe: one thread owns a router (scans open their own connections).

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_addressing.h"
#include "lockscope/inspect/cluster/cluster_topology.h"
#include "lockscope/inspect/cluster/topology_refresh_policy.h"

namespace lockscope::inspect {

class ClusterRouter {
  public:
    // Connects to the seed (the topology is asked for later, when needed). Throws the
    // connection's errors.
    ClusterRouter(Endpoint seed, ConnectionOptions options, ClusterAddressing addressing = {});
    ~ClusterRouter();
    ClusterRouter(ClusterRouter&&) noexcept;

    // Asks the seed for the topology the first time (CLUSTER SHARDS, or SLOTS), never again.
    bool isCluster();
    // Only meaningful when isCluster().
    const ClusterTopology& topology() const { return *topology_; }
    const Endpoint& seed() const { return seed_; }
    const ConnectionOptions& options() const { return options_; }
    const ClusterAddressing& addressing() const { return addressing_; }
    // What discovery had to say (CLUSTER denied...): filled by isCluster().
    const std::vector<std::string>& notes() const { return notes_; }
    // What changed in the topology since the router was made (failovers, slot moves), one
    // line each, for the command log.
    const std::vector<std::string>& events() const { return events_; }

    // Asks the cluster again (any reachable node, the seed first) and records what changed.
    void refresh();

    // For a watcher, called at each of its steps: asks the cluster again when the policy says
    // so (a reason seen, or 30 s since the last answer). True when it asked. Throws what
    // refresh() throws; the next ask is then a second later.
    bool followTopology(TopologyRefreshPolicy::Clock::time_point now);
    // Reasons to ask again, seen by the router itself (onKey, refresh) or by its user: a
    // connection of its own or another watcher's to a node was lost or refused.
    void noteNodeLost(TopologyRefreshPolicy::Clock::time_point now);
    // Sorts an error a command met: MOVED or ASK, CLUSTERDOWN and lost or refused connections
    // are reasons to ask again; any other error is none.
    void noteError(const Error& error, TopologyRefreshPolicy::Clock::time_point now);
    // A read of its user's answered MOVED or ASK (a watch's poll): ask again at the next chance.
    void noteRedirect() { refreshPolicy_.noteRedirect(); }
    // The connection to a node named by a redirection, through the address map.
    Connection& connectionToNode(const std::string& host, int port) {
        return connectionToAddress(host, port);
    }
    const TopologyRefreshPolicy& refreshPolicy() const { return refreshPolicy_; }

    // The node's endpoint: the seed as given for the seed's own node (whatever it announces),
    // else the announced address through the address map.
    Endpoint endpointOf(const ClusterNode& node) const;
    // The connection to the node that serves the key (the seed on a plain server).
    Connection& connectionForKey(std::string_view key);
    Connection& connectionTo(const Endpoint& endpoint);

    // Runs act on the key's node and follows one MOVED and one ASK, and sends it again for up
    // to 2 s while it answers TRYAGAIN (a migration half done). beforeAsk runs on the
    // importing node's connection before ASKING (e.g. SCRIPT LOAD, so the one command after
    // ASKING is not spent on a NOSCRIPT).
    // act may throw; its last error is rethrown when no redirection explains it.
    void onKey(std::string_view key, const std::function<void(Connection&)>& act,
               const std::function<void(Connection&)>& beforeAsk = {});

  private:
    Connection& connectionToAddress(const std::string& host, int port);
    void dropConnection(const Connection* connection);
    void recordChanges(const ClusterTopology& before, const ClusterTopology& after);
    void learnSeedNodeId(Connection& seed);

    Endpoint seed_;
    ConnectionOptions options_;
    ClusterAddressing addressing_;
    std::optional<ClusterTopology> topology_;
    bool topologyAsked_ = false;  // the seed answered a topology question (cluster or not)
    std::string seedNodeId_;      // CLUSTER MYID of the seed (empty when denied)
    std::map<std::string, std::unique_ptr<Connection>> connections_;  // by Endpoint::display()
    std::vector<std::string> notes_, events_;
    TopologyRefreshPolicy refreshPolicy_;
};

}  // namespace lockscope::inspect
