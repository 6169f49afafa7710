#pragma once
// How the operator's machine reaches the nodes of a cluster whose announced addresses it
// cannot reach (NAT, containers, an SSH tunnel): an address map "announced=reachable"
// (--cluster-map 10.0.0.5:6379=127.0.0.1:7001, repeatable), or every node through the seed's
// host at its announced port. Every node gets the seed's credentials and TLS settings; the
// TLS name checked is the node's own announced host, also when reached through a map.

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "lockscope/endpoint.h"
#include "lockscope/inspect/cluster/cluster_topology.h"

namespace lockscope::inspect {

struct ClusterAddressing {
    std::map<std::string, std::string> addressMap;  // "host:port" -> "host:port"
    bool throughSeedHost = false;
    // The TLS name every node is checked against ("": each node's own announced host). Unset,
    // the seed's is (the operator's --sni); set, the seed's name is the seed's alone, as for
    // a seed that is itself one node of a cluster reached through the map.
    std::optional<std::string> serverNameForAll;
};

// Adds "A=B" (both host:port, an IPv6 host in brackets) to the map. Throws
// InvalidArgumentError naming the bad part.
void addAddressMapping(ClusterAddressing& addressing, std::string_view entry);

// The endpoint LockScope connects to for a node announced at host:port.
Endpoint nodeEndpoint(const Endpoint& seed, std::string_view host, int port,
                      const ClusterAddressing& addressing);
inline Endpoint nodeEndpoint(const Endpoint& seed, const ClusterNode& node,
                             const ClusterAddressing& addressing) {
    return nodeEndpoint(seed, node.host, node.port, addressing);
}

}  // namespace lockscope::inspect
