// The cluster half of ServerWatch (server_watch.h): handing a moved slot's locks to the new
// owner's watch, reporting the topology's changes and which primaries do not answer.

#include <algorithm>

#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_watch_hand_off.h"
#include "server_watch_impl.h"

namespace lockscope::inspect {

// On a cluster: reads that answered MOVED or ASK hand the slot's locks to the watch of their
// new owner in the same round (cluster_watch_hand_off.h), and the topology changes the router
// learned are reported. updates[i] belongs to nodes[i].
void ServerWatch::Impl::handOff(const ServerWatchOptions& o,
                                std::vector<std::optional<WatchUpdate>>& updates,
                                std::vector<WatchEvent>& events) {
    if (!router) return;
    const bool redirected = std::any_of(updates.begin(), updates.end(),
                                        [](const auto& u) { return u && !u->redirected.empty(); });
    if (redirected) {
        // A slot may have moved to a primary not watched yet (a scale-out): its watch opens
        // first, so the hand-off below gives it the slot's locks with their history.
        try {
            router->noteRedirect();
            router->followTopology(SteadyClock::now());
            watchNewPrimaries(o, events);
        } catch (const Error&) {
            // Asked again by the hand-off, or at the next round.
        }
        updates.resize(nodes.size());
    }
    std::vector<WatchedPrimary> watched;
    std::vector<WatchUpdate> round;
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        LockWatch* watch = nodes[i].node->watch();
        if (!watch) continue;
        watched.push_back({watch, nodes[i].node->primary()});
        round.push_back(updates[i] ? std::move(*updates[i]) : WatchUpdate{});
        at.push_back(i);
    }
    std::vector<SlotHandOff> moved;
    try {
        moved = handOffRedirectedKeys(*router, watched, round);
    } catch (const Error&) {
        // A node lost meanwhile: its read reports it, and the failover follows.
    }
    for (std::size_t k = 0; k < at.size(); ++k) {
        if (!updates[at[k]] && round[k].changed.empty() && round[k].movedAway.empty()) continue;
        updates[at[k]] = std::move(round[k]);
    }
    for (const auto& h : moved)
        events.push_back(
            noteEvent(h.from, {WatchNoteId::SlotMoved,
                               {std::to_string(h.slot), h.to, std::to_string(h.keys.size())}}));
    reportTopology(events);
}

void ServerWatch::Impl::reportTopology(std::vector<WatchEvent>& events) {
    if (!router) return;
    const auto& changes = router->events();
    for (; topologySeen < changes.size(); ++topologySeen) {
        WatchEvent e;
        e.kind = WatchEvent::Kind::Topology;
        e.change = changes[topologySeen];
        events.push_back(std::move(e));
    }
}

void ServerWatch::Impl::watchNewPrimaries(const ServerWatchOptions& o,
                                          std::vector<WatchEvent>& events) {
    if (!router) return;
    for (const ClusterNode* p : router->topology().primaries()) {
        if (p->servedSlots.empty()) continue;
        const Endpoint at = router->endpointOf(*p);
        const bool watched = std::any_of(nodes.begin(), nodes.end(), [&](const Watched& w) {
            if (w.node->primary().display() == at.display()) return true;
            const ClusterNode* owner = router->topology().ownerOfSlot(w.node->firstSlot());
            return owner == p;
        });
        if (watched) continue;
        NodeWatchSetup s =
            setupFor(o, at, formatSlotRanges(p->servedSlots), p->servedSlots.front().first);
        if (o.scanReplicas) {
            s.replicas = clusterReplicas(*router);
            s.clusterReplicas = true;
        }
        auto node = std::make_unique<NodeWatch>(std::move(s));
        try {
            node->open(events);
        } catch (const Error&) {
            // Opened at its first round, where its state says why it does not answer.
        }
        nodes.push_back({std::move(node)});
    }
}

void ServerWatch::Impl::reportClusterHealth(std::vector<WatchEvent>& events) {
    if (!router) return;
    std::string down;
    std::vector<SlotRange> orphaned;
    // Whether the cluster itself sees the shard's primary as online (CLUSTER SHARDS).
    const auto online = [&](const Watched& w) {
        const ClusterNode* owner = router->topology().ownerOfSlot(w.node->firstSlot());
        return owner && owner->health == "online";
    };
    const bool anotherFailed =
        std::any_of(nodes.begin(), nodes.end(), [&](const Watched& w) { return !online(w); });
    for (const auto& w : nodes) {
        if (!w.node->failedLastRead()) continue;
        // A primary the cluster sees as online while another has failed fails only with the
        // cluster (it answers CLUSTERDOWN, full coverage required): not one of the nodes down.
        if (anotherFailed && online(w)) continue;
        const ClusterNode* owner = router->topology().ownerOfSlot(w.node->firstSlot());
        down += (down.empty() ? "" : ", ") + w.node->primary().display();
        if (owner)
            orphaned.insert(orphaned.end(), owner->servedSlots.begin(), owner->servedSlots.end());
    }
    std::sort(orphaned.begin(), orphaned.end(),
              [](const SlotRange& a, const SlotRange& b) { return a.first < b.first; });
    const std::string slots = formatSlotRanges(orphaned);
    const std::string said = down + "|" + slots;
    if (down.empty()) {
        if (!clusterDownSaid.empty()) events.push_back(noteEvent({}, {WatchNoteId::ClusterUp, {}}));
        clusterDownSaid.clear();
        return;
    }
    if (said == clusterDownSaid) return;
    clusterDownSaid = said;
    events.push_back(noteEvent({}, {WatchNoteId::ClusterDown, {down, slots}}));
}

}  // namespace lockscope::inspect
