#include "lockscope/inspect/cluster/cluster_addressing.h"

#include <charconv>

#include "lockscope/errors.h"

namespace lockscope::inspect {
namespace {

struct HostPort {
    std::string host;
    int port = 0;
};

HostPort parseHostPort(std::string_view text, std::string_view side) {
    auto fail = [&](const std::string& why) -> HostPort {
        throw InvalidArgumentError("--cluster-map: the " + std::string(side) + " address \"" +
                                   std::string(text.substr(0, 80)) + "\" " + why +
                                   " (expected host:port)");
    };
    auto colon = text.rfind(':');
    if (colon == std::string_view::npos || colon == 0) return fail("has no port");
    std::string_view host = text.substr(0, colon), portText = text.substr(colon + 1);
    if (host.front() == '[') {
        if (host.size() < 3 || host.back() != ']') return fail("has an unclosed [");
        host = host.substr(1, host.size() - 2);
    }
    if (host.size() > 255) return fail("has a host name that is too long");
    for (unsigned char c : host)
        if (c <= 0x20 || c == 0x7f || c == '/' || c == '@' || c == '=')
            return fail("contains a bad character");
    int port = 0;
    auto [end, ec] = std::from_chars(portText.data(), portText.data() + portText.size(), port);
    if (portText.empty() || ec != std::errc() || end != portText.data() + portText.size() ||
        port < 1 || port > 65535)
        return fail("has a bad port");
    return {std::string(host), port};
}

std::string key(std::string_view host, int port) {
    return std::string(host) + ":" + std::to_string(port);
}

}  // namespace

void addAddressMapping(ClusterAddressing& addressing, std::string_view entry) {
    auto eq = entry.find('=');
    if (eq == std::string_view::npos || entry.find('=', eq + 1) != std::string_view::npos)
        throw InvalidArgumentError(
            "--cluster-map takes ANNOUNCED=REACHABLE, like "
            "10.0.0.5:6379=127.0.0.1:7001");
    HostPort from = parseHostPort(entry.substr(0, eq), "announced");
    HostPort to = parseHostPort(entry.substr(eq + 1), "reachable");
    addressing.addressMap[key(from.host, from.port)] = key(to.host, to.port);
}

Endpoint nodeEndpoint(const Endpoint& seed, std::string_view host, int port,
                      const ClusterAddressing& addressing) {
    Endpoint e = seed;
    e.unixPath.clear();
    e.db = 0;  // a cluster has database 0 only
    e.host = std::string(host);
    e.port = port;
    bool redirected = false;
    if (auto it = addressing.addressMap.find(key(host, port)); it != addressing.addressMap.end()) {
        HostPort to = parseHostPort(it->second, "reachable");
        e.host = to.host;
        e.port = to.port;
        redirected = true;
    } else if (addressing.throughSeedHost && !seed.isUnix()) {
        e.host = seed.host;
        redirected = e.host != host;
    }
    // The certificate names the node, not the tunnel: check the announced name unless the
    // operator chose one (--sni) for all.
    if (addressing.serverNameForAll) e.tls.serverName = *addressing.serverNameForAll;
    if (e.tls.enabled && e.tls.serverName.empty() && redirected) e.tls.serverName = host;
    return e;
}

}  // namespace lockscope::inspect
