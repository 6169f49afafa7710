#include "lockscope/inspect/cluster/cluster_router.h"

#include <thread>

#include "lockscope/errors.h"
#include "lockscope/inspect/hash_slot.h"

namespace lockscope::inspect {

ClusterRouter::ClusterRouter(Endpoint seed, ConnectionOptions options, ClusterAddressing addressing)
    : seed_(std::move(seed)), options_(std::move(options)), addressing_(std::move(addressing)) {
    connectionTo(seed_);  // an unreachable seed fails here, as before
}

bool ClusterRouter::isCluster() {
    if (!topologyAsked_) {
        Connection& first = connectionTo(seed_);
        topology_ = discoverTopology(first, &notes_);
        topologyAsked_ = true;
        refreshPolicy_.noteAsked(TopologyRefreshPolicy::Clock::now());
        if (topology_) learnSeedNodeId(first);
    }
    return topology_.has_value();
}

void ClusterRouter::learnSeedNodeId(Connection& seed) {
    try {
        seedNodeId_ = std::string(seed.command({"CLUSTER", "MYID"}).text());
    } catch (const ReplyError&) {
        // Denied: the seed's node is reached at its announced address like the others.
    }
}

ClusterRouter::~ClusterRouter() = default;
ClusterRouter::ClusterRouter(ClusterRouter&&) noexcept = default;

Endpoint ClusterRouter::endpointOf(const ClusterNode& node) const {
    if (!seedNodeId_.empty() && node.id == seedNodeId_) {
        Endpoint e = seed_;
        e.db = 0;
        return e;
    }
    return nodeEndpoint(seed_, node, addressing_);
}

Connection& ClusterRouter::connectionTo(const Endpoint& endpoint) {
    auto& slot = connections_[endpoint.display()];
    if (!slot) slot = std::make_unique<Connection>(Connection::open(endpoint, options_));
    return *slot;
}

void ClusterRouter::dropConnection(const Connection* connection) {
    std::erase_if(connections_,
                  [&](const auto& entry) { return entry.second.get() == connection; });
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
    const auto now = TopologyRefreshPolicy::Clock::now();
    std::vector<Endpoint> candidates{seed_};
    if (topology_)
        for (const auto& n : topology_->nodes) candidates.push_back(endpointOf(n));
    std::optional<Error> last;
    for (const auto& e : candidates) {
        try {
            Connection& c = connectionTo(e);
            auto fresh = discoverTopology(c);
            if (!fresh) continue;
            const bool first = !topology_;
            if (topology_) recordChanges(*topology_, *fresh);
            topology_ = std::move(fresh);
            topologyAsked_ = true;
            if (first && e.display() == seed_.display()) learnSeedNodeId(c);
            refreshPolicy_.noteAsked(now);
            return;
        } catch (const IoError& err) {
            connections_.erase(e.display());  // reopened on next use
            last.emplace(err.kind(), err.what());
            // A node that does not answer may be failing over: watch closely for a while.
            refreshPolicy_.noteNodeLost(now);
        }
    }
    refreshPolicy_.noteAskFailed(now);
    if (last)
        throw ConnectionRefusedError("no node of the cluster answered: " +
                                     std::string(last->what()));
}

bool ClusterRouter::followTopology(TopologyRefreshPolicy::Clock::time_point now) {
    if (!refreshPolicy_.dueForRefresh(now)) return false;
    refresh();
    return true;
}

void ClusterRouter::noteNodeLost(TopologyRefreshPolicy::Clock::time_point now) {
    refreshPolicy_.noteNodeLost(now);
}

void ClusterRouter::noteError(const Error& error, TopologyRefreshPolicy::Clock::time_point now) {
    if (dynamic_cast<const IoError*>(&error)) {
        // Lost, refused, timed out: the node may be down, and its replica about to take over.
        // A cancelled command says nothing about the node.
        if (!dynamic_cast<const CancelledError*>(&error)) refreshPolicy_.noteNodeLost(now);
        return;
    }
    const auto* reply = dynamic_cast<const ReplyError*>(&error);
    if (!reply) return;
    switch (reply->code()) {
        case ServerErrorCode::Moved:
        case ServerErrorCode::Ask:
            refreshPolicy_.noteRedirect();
            break;
        case ServerErrorCode::ClusterDown:
            refreshPolicy_.noteNodeLost(now);  // a failover in progress, or a shard lost
            break;
        default:
            break;
    }
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
        else if (n.isPrimary() && old->servedSlots != n.servedSlots)
            events_.push_back("slots moved: " + n.address() + " now serves " +
                              formatSlotRanges(n.servedSlots) + " (was " +
                              formatSlotRanges(old->servedSlots) + ")");
    }
}

void ClusterRouter::onKey(std::string_view key, const std::function<void(Connection&)>& act,
                          const std::function<void(Connection&)>& beforeAsk) {
    // Until a MOVED says otherwise the seed is taken for the key's node: a plain server
    // (or the key's own node) is never asked about the cluster.
    Connection* c = &connectionForKey(key);
    // One MOVED is followed for a topology change; a router that had not asked yet follows
    // one more, which only taught it that the seed is in a cluster.
    int movedLeft = topology_ ? 1 : 2;
    bool followedAsk = false;
    // TRYAGAIN: a multi-key command (a library's release script names its channel and queue
    // keys too) while the slot migrates and only some of its keys moved. Nothing ran; the
    // migration of a slot's keys takes moments, so it is sent again, for up to 2 s.
    const auto tryAgainUntil = TopologyRefreshPolicy::Clock::now() + std::chrono::seconds(2);
    while (true) {
        try {
            act(*c);
            return;
        } catch (const IoError& e) {
            noteError(e, TopologyRefreshPolicy::Clock::now());
            dropConnection(c);  // a long-lived router (the window's) opens it again next time
            throw;
        } catch (const ReplyError& e) {
            if (e.code() == ServerErrorCode::ClusterDown)
                noteError(e, TopologyRefreshPolicy::Clock::now());
            if (e.code() == ServerErrorCode::TryAgain &&
                TopologyRefreshPolicy::Clock::now() < tryAgainUntil) {
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
                c = &connectionForKey(key);  // from the owner again: it may answer MOVED now
                followedAsk = false;
                continue;
            }
            const bool moved = e.code() == ServerErrorCode::Moved;
            const bool ask = e.code() == ServerErrorCode::Ask;
            if ((!moved && !ask) || (moved && movedLeft == 0) || (ask && followedAsk)) throw;
            auto to = parseRedirection(e.what());
            if (!to) throw;
            if (moved) {
                --movedLeft;
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
