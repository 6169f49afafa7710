#include "lockscope/inspect/cluster/cluster_topology.h"

#include <algorithm>
#include <charconv>

#include "lockscope/errors.h"

namespace lockscope::inspect {
namespace {

// A server that cannot answer the question: a plain server ("ERR This instance has cluster
// support disabled"), or one too old for CLUSTER SHARDS ("ERR unknown subcommand"), or with
// the command renamed away. Told by the reply's code, never by its text: any generic ERR or
// unknown command means "no topology from this question"; LOADING, BUSY and the others are
// the server's state, thrown.
bool cannotAnswer(const ReplyError& e) {
    return e.code() == ServerErrorCode::Err || e.code() == ServerErrorCode::UnknownCommand;
}

[[noreturn]] void badShape(const Connection& c, std::string_view command, std::string_view why) {
    throw ProtocolError(std::string(command) + " on " + c.endpoint().display() +
                        ": unexpected reply (" + std::string(why) + ")");
}

std::int64_t integerOf(ReplyView v) {
    if (v.isInteger()) return v.integer();
    std::int64_t n = -1;
    auto t = v.text();
    std::from_chars(t.data(), t.data() + t.size(), n);
    return n;
}

// A RESP2 map: [key, value, key, value...]; returns the value of `key` (a null view if absent).
std::optional<ReplyView> field(ReplyView map, std::string_view key) {
    for (std::size_t i = 0; i + 1 < map.size(); i += 2)
        if (map[i].text() == key) return map[i + 1];
    return std::nullopt;
}

ClusterNode shardNode(const Connection& c, ReplyView v, bool tls) {
    if (!v.isArray()) badShape(c, "CLUSTER SHARDS", "a node is not a map");
    ClusterNode n;
    if (auto id = field(v, "id")) n.id = std::string(id->text());
    auto endpoint = field(v, "endpoint");
    auto ip = field(v, "ip");
    if (endpoint && !endpoint->text().empty() && endpoint->text() != "?")
        n.host = std::string(endpoint->text());
    else if (ip)
        n.host = std::string(ip->text());
    auto tlsPort = field(v, "tls-port");
    auto port = field(v, "port");
    // The TLS port when the connection is TLS (or it is the only one the node gives).
    if (auto chosen = tlsPort && (tls || !port) ? tlsPort : port)
        n.port = static_cast<int>(integerOf(*chosen));
    if (auto role = field(v, "role"))
        n.role = role->text() == "master" ? NodeRole::Primary : NodeRole::Replica;
    if (auto offset = field(v, "replication-offset")) n.replicationOffset = integerOf(*offset);
    if (auto health = field(v, "health")) n.health = std::string(health->text());
    if (n.host.empty() || n.port <= 0 || n.port > 65535)
        badShape(c, "CLUSTER SHARDS", "a node without host or port");
    return n;
}

ClusterTopology fromShards(const Connection& c, const Reply& reply) {
    ClusterTopology t;
    t.source = "CLUSTER SHARDS";
    bool tls = c.endpoint().tls.enabled;
    for (std::size_t s = 0; s < reply.size(); ++s) {
        ReplyView shard = reply[s];
        auto slots = field(shard, "slots");
        auto nodes = field(shard, "nodes");
        if (!slots || !nodes || !slots->isArray() || !nodes->isArray())
            badShape(c, "CLUSTER SHARDS", "a shard without slots or nodes");
        std::vector<SlotRange> ranges;
        for (std::size_t i = 0; i + 1 < slots->size(); i += 2)
            ranges.push_back({static_cast<int>(integerOf((*slots)[i])),
                              static_cast<int>(integerOf((*slots)[i + 1]))});
        std::vector<ClusterNode> shardNodes;
        for (std::size_t i = 0; i < nodes->size(); ++i)
            shardNodes.push_back(shardNode(c, (*nodes)[i], tls));
        // The shard's primary: the node whose role is master (a failed one stays listed).
        std::string primaryId;
        for (const auto& n : shardNodes)
            if (n.isPrimary() && (primaryId.empty() || n.health == "online")) primaryId = n.id;
        for (auto& n : shardNodes) {
            if (n.isPrimary() && n.id == primaryId)
                n.servedSlots = ranges;
            else if (n.isPrimary())
                n.role = NodeRole::Replica;  // a failed former primary: no longer the owner
            if (!n.isPrimary()) n.primaryId = primaryId;
            t.nodes.push_back(std::move(n));
        }
    }
    return t;
}

ClusterTopology fromSlots(const Connection& c, const Reply& reply) {
    ClusterTopology t;
    t.source = "CLUSTER SLOTS";
    auto nodeAt = [&](ReplyView v) {
        if (!v.isArray() || v.size() < 2)
            badShape(c, "CLUSTER SLOTS", "a node is not [host, port]");
        ClusterNode n;
        n.host = std::string(v[0].text());
        n.port = static_cast<int>(integerOf(v[1]));
        if (v.size() > 2) n.id = std::string(v[2].text());
        if (n.host.empty() || n.port <= 0 || n.port > 65535)
            badShape(c, "CLUSTER SLOTS", "a node without host or port");
        return n;
    };
    auto find = [&](const ClusterNode& n) -> ClusterNode* {
        for (auto& known : t.nodes)
            if ((!n.id.empty() && known.id == n.id) || known.address() == n.address())
                return &known;
        return nullptr;
    };
    for (std::size_t r = 0; r < reply.size(); ++r) {
        ReplyView range = reply[r];
        if (!range.isArray() || range.size() < 3) badShape(c, "CLUSTER SLOTS", "a short range");
        SlotRange slots{static_cast<int>(integerOf(range[0])),
                        static_cast<int>(integerOf(range[1]))};
        ClusterNode primary = nodeAt(range[2]);
        ClusterNode* p = find(primary);
        if (!p) t.nodes.push_back(primary), p = &t.nodes.back();
        p->servedSlots.push_back(slots);
        std::string primaryId = p->id.empty() ? p->address() : p->id;
        for (std::size_t i = 3; i < range.size(); ++i) {
            ClusterNode replica = nodeAt(range[i]);
            if (find(replica)) continue;
            replica.role = NodeRole::Replica;
            replica.primaryId = primaryId;
            t.nodes.push_back(std::move(replica));
        }
    }
    for (auto& n : t.nodes)
        std::sort(n.servedSlots.begin(), n.servedSlots.end(),
                  [](const SlotRange& a, const SlotRange& b) { return a.first < b.first; });
    return t;
}

}  // namespace

std::vector<const ClusterNode*> ClusterTopology::primaries() const {
    std::vector<const ClusterNode*> out;
    for (const auto& n : nodes)
        if (n.isPrimary()) out.push_back(&n);
    return out;
}

std::vector<const ClusterNode*> ClusterTopology::replicasOf(const ClusterNode& primary) const {
    std::vector<const ClusterNode*> out;
    const std::string key = primary.id.empty() ? primary.address() : primary.id;
    for (const auto& n : nodes)
        if (!n.isPrimary() && n.primaryId == key) out.push_back(&n);
    return out;
}

const ClusterNode* ClusterTopology::onlineReplicaOf(const ClusterNode& primary) const {
    for (const ClusterNode* replica : replicasOf(primary))
        if (replica->health != "fail" && replica->health != "failed") return replica;
    return nullptr;
}

std::int64_t ClusterTopology::lagBytes(const ClusterNode& primary, const ClusterNode& replica) {
    // A replica's offset reaches the other nodes by gossip: until it has, CLUSTER SHARDS says
    // 0 ("loading"), which is no measure of its lag.
    if (primary.replicationOffset < 0 || replica.replicationOffset <= 0) return -1;
    // The node asked heard each offset at its own moment, so a replica that is caught up can
    // look a few bytes ahead of its primary: that is no lag at all.
    return std::max<std::int64_t>(0, primary.replicationOffset - replica.replicationOffset);
}

const ClusterNode* ClusterTopology::ownerOfSlot(int slot) const {
    for (const auto& n : nodes)
        if (n.isPrimary())
            for (const auto& r : n.servedSlots)
                if (slot >= r.first && slot <= r.last) return &n;
    return nullptr;
}

const ClusterNode* ClusterTopology::byId(std::string_view id) const {
    for (const auto& n : nodes)
        if (n.id == id) return &n;
    return nullptr;
}

std::optional<ClusterTopology> discoverTopology(Connection& connection,
                                                std::vector<std::string>* notes) {
    try {
        Reply shards = connection.command({"CLUSTER", "SHARDS"});
        if (!shards.view().isArray()) badShape(connection, "CLUSTER SHARDS", "not an array");
        return fromShards(connection, shards);
    } catch (const PermissionError&) {
        // Some ACLs allow the older SLOTS only: try it below.
    } catch (const ReplyError& e) {
        if (!cannotAnswer(e)) throw;  // asked again the older way: SLOTS tells a plain server
    }
    try {
        Reply slots = connection.command({"CLUSTER", "SLOTS"});
        if (!slots.view().isArray()) badShape(connection, "CLUSTER SLOTS", "not an array");
        return fromSlots(connection, slots);
    } catch (const PermissionError& e) {
        if (notes)
            notes->push_back(std::string("CLUSTER denied: ") + e.what() +
                             "; if this server is part of a cluster, only its own keys are shown");
        return std::nullopt;
    } catch (const ReplyError& e) {
        if (cannotAnswer(e)) return std::nullopt;
        throw;
    }
}

std::string formatSlotRanges(const std::vector<SlotRange>& ranges) {
    std::string out;
    for (const auto& r : ranges) {
        if (!out.empty()) out += ",";
        out += std::to_string(r.first);
        if (r.last != r.first) out += "-" + std::to_string(r.last);
    }
    return out.empty() ? "none" : out;
}

std::optional<Redirection> parseRedirection(std::string_view message) {
    Redirection r;
    auto at = message.find("MOVED ");
    if (at == std::string_view::npos) {
        at = message.find("ASK ");
        if (at == std::string_view::npos) return std::nullopt;
        r.ask = true;
        message.remove_prefix(at + 4);
    } else {
        message.remove_prefix(at + 6);
    }
    auto space = message.find(' ');
    if (space == std::string_view::npos) return std::nullopt;
    auto [end, ec] = std::from_chars(message.data(), message.data() + space, r.slot);
    if (ec != std::errc() || end != message.data() + space || r.slot < 0 || r.slot >= kClusterSlots)
        return std::nullopt;
    std::string_view address = message.substr(space + 1);
    address = address.substr(0, address.find_first_of(" \r\n"));
    auto colon = address.rfind(':');
    if (colon == std::string_view::npos || colon == 0) return std::nullopt;
    auto portText = address.substr(colon + 1);
    auto [pend, pec] = std::from_chars(portText.data(), portText.data() + portText.size(), r.port);
    if (pec != std::errc() || pend != portText.data() + portText.size() || r.port <= 0 ||
        r.port > 65535)
        return std::nullopt;
    r.host = std::string(address.substr(0, colon));
    return r;
}

}  // namespace lockscope::inspect
