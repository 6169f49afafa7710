#include "lockscope/inspect/cluster_router.h"

#include "lockscope/errors.h"
#include "lockscope/inspect/hash_slot.h"

namespace lockscope::inspect {

ClusterRouter::ClusterRouter(Endpoint seed, ConnectionOptions options, ClusterAddressing addressing)
    : seed_(std::move(seed)), options_(std::move(options)), addressing_(std::move(addressing)) {
    Connection& first = connectionTo(seed_);
    topology_ = discoverTopology(first, &notes_);
}

ClusterRouter::~ClusterRouter() = default;
ClusterRouter::ClusterRouter(ClusterRouter&&) noexcept = default;

Endpoint ClusterRouter::endpointOf(const ClusterNode& node) const {
    return nodeEndpoint(seed_, node, addressing_);
}

Connection& ClusterRouter::connectionTo(const Endpoint& endpoint) {
    auto& slot = connections_[endpoint.display()];
    if (!slot) slot = std::make_unique<Connection>(Connection::open(endpoint, options_));
    return *slot;
}

Connection& ClusterRouter::connectionToAddress(const std::string& host, int port) {
    return connectionTo(nodeEndpoint(seed_, host, port, addressing_));
}

Connection& ClusterRouter::connectionForKey(std::string_view key) {
    if (!topology_) return connectionTo(seed_);
    const ClusterNode* owner = topology_->ownerOfSlot(keyHashSlot(key));
    if (!owner) {
        refresh();
        owner = topology_ ? topology_->ownerOfSlot(keyHashSlot(key)) : nullptr;
        if (!owner)
            throw ReplyError("no node of the cluster at " + seed_.display() + " serves slot " +
                                 std::to_string(keyHashSlot(key)) + " (the cluster is down?)",
                             ErrorKind::Reply, ServerErrorCode::ClusterDown);
    }
    return connectionTo(endpointOf(*owner));
}

void ClusterRouter::refresh() {
    std::vector<Endpoint> candidates{seed_};
    if (topology_)
        for (const auto& n : topology_->nodes) candidates.push_back(endpointOf(n));
    std::optional<Error> last;
    for (const auto& e : candidates) {
        try {
            Connection& c = connectionTo(e);
            auto fresh = discoverTopology(c);
            if (!fresh) continue;
            if (topology_) recordChanges(*topology_, *fresh);
            topology_ = std::move(fresh);
            return;
        } catch (const IoError& err) {
            connections_.erase(e.display());  // reopened on next use
            last.emplace(err.kind(), err.what());
        }
    }
    if (last)
        throw ConnectionRefusedError("no node of the cluster answered: " +
                                     std::string(last->what()));
}

void ClusterRouter::recordChanges(const ClusterTopology& before, const ClusterTopology& after) {
    for (const auto& n : after.nodes) {
        const ClusterNode* old = before.byId(n.id);
        if (!old) {
            events_.push_back("node " + n.address() + " joined the cluster");
            continue;
        }
        if (old->isPrimary() != n.isPrimary())
            events_.push_back(n.isPrimary() ? "failover: " + n.address() + " is now a primary"
                                            : n.address() + " is now a replica");
        else if (n.isPrimary() && old->slots != n.slots)
            events_.push_back("slots moved: " + n.address() + " now serves " +
                              formatSlotRanges(n.slots) + " (was " + formatSlotRanges(old->slots) +
                              ")");
    }
}

void ClusterRouter::onKey(std::string_view key, const std::function<void(Connection&)>& act,
                          const std::function<void(Connection&)>& beforeAsk) {
    Connection* c = &connectionForKey(key);
    bool followedMoved = false, followedAsk = false;
    while (true) {
        try {
            act(*c);
            return;
        } catch (const ReplyError& e) {
            const bool moved = e.code() == ServerErrorCode::Moved;
            const bool ask = e.code() == ServerErrorCode::Ask;
            if ((!moved && !ask) || (moved && followedMoved) || (ask && followedAsk)) throw;
            auto to = parseRedirection(e.what());
            if (!to) throw;
            if (moved) {
                followedMoved = true;
                refresh();
                c = &connectionToAddress(to->host, to->port);
            } else {
                followedAsk = true;
                c = &connectionToAddress(to->host, to->port);
                if (beforeAsk) beforeAsk(*c);
                c->command({"ASKING"});
            }
        }
    }
}

}  // namespace lockscope::inspect
