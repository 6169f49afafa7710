#include "lockscope/inspect/watch/server_watch.h"

#include <algorithm>
#include <condition_variable>
#include <mutex>

#include "inspect/liveness/key_reads.h"
#include "lockscope/errors.h"
#include "lockscope/inspect/cluster/cluster_router.h"
#include "lockscope/inspect/cluster/cluster_watch_hand_off.h"
#include "lockscope/inspect/cluster/fences_from_owners.h"
#include "lockscope/sentinel_switches.h"
#include "node_watch.h"
#include "server_watch_impl.h"

namespace lockscope::inspect {
namespace {

using namespace std::chrono_literals;

// Short timeouts for Sentinels: one that does not answer at once is skipped for the next.
const ConnectionOptions kQuick{.connectTimeout = 500ms, .commandTimeout = 500ms};

void sleepUnlessStopped(std::chrono::milliseconds wait, std::stop_token stop) {
    std::mutex m;
    std::condition_variable_any wake;
    std::unique_lock lock(m);
    wake.wait_for(lock, stop, wait, [] { return false; });
}

bool anyRows(const WatchUpdate& u) {
    return !u.changed.empty() || !u.removed.empty() || !u.movedAway.empty() || !u.connected ||
           u.rescanned;
}

}  // namespace

ServerWatch::ServerWatch(ServerWatchOptions options)
    : options_(std::move(options)), impl_(std::make_unique<Impl>()) {
    validate(options_.watch.scan);
    if (!(options_.watch.budget > 0.0 && options_.watch.budget <= 1.0))
        throw InvalidArgumentError("the load budget must be above 0% and at most 100%");
    if (options_.watch.pollInterval < 10ms)
        throw InvalidArgumentError("the poll interval must be at least 10 ms");
    if (options_.replicaRetry < 100ms)
        throw InvalidArgumentError("the replica retry must be at least 100 ms");
}

ServerWatch::~ServerWatch() = default;

NodeWatchSetup ServerWatch::Impl::setupFor(const ServerWatchOptions& o, Endpoint primary,
                                           std::string shard, int firstSlot) {
    NodeWatchSetup s;
    s.name = primary.display();
    s.primary = std::move(primary);
    s.shard = std::move(shard);
    s.firstSlot = firstSlot;
    s.watch = o.watch;
    if (o.onNodeRescanBatch)
        s.watch.onRescanBatch = [report = o.onNodeRescanBatch, node = s.name](
                                    std::vector<LockRecord>& batch, const ScanProgress& progress) {
            report(node, batch, progress);
        };
    // A cluster's watch keeps a key whose read answered MOVED, for the hand-off, and reads a
    // fence in another slot from the node that serves it, never from its lock's node.
    s.watch.handOffRedirects = router != nullptr;
    if (router) {
        s.watch.scan.clusterNode = true;
        s.watch.scan.fencesElsewhere = std::make_shared<RoutedFences>(router);
    }
    s.connection = o.connection;
    if (o.onNodeConnection)
        s.onConnection = [report = o.onNodeConnection, node = s.name](Connection& c) {
            report(node, c);
        };
    s.connection.readOnly = true;  // watching only reads
    s.replicaRetry = o.replicaRetry;
    s.liveness = o.liveness;
    // Sidekiq's keys (processes, queues, sets) sit in other slots: read from their owners.
    if (router && s.liveness) s.liveness->keysElsewhere = std::make_shared<RoutedKeyReads>(router);
    return s;
}

void ServerWatch::Impl::openSentinel(const ServerWatchOptions& o, std::vector<WatchEvent>& ev) {
    const SentinelTarget& target = *o.sentinel;
    Endpoint primary = discoverPrimary(target, kQuick);
    ev.push_back(
        noteEvent({}, {WatchNoteId::SentinelPrimary, {target.service, primary.display()}}));
    switches = std::make_unique<SentinelSwitches>(target, kQuick);
    NodeWatchSetup s = setupFor(o, primary, target.service, -1);
    if (o.scanReplicas) s.replicas = sentinelReplicas(target);
    nodes.push_back({std::make_unique<NodeWatch>(std::move(s))});
}

void ServerWatch::Impl::openServer(const ServerWatchOptions& o, std::vector<WatchEvent>& ev) {
    try {
        router = std::make_shared<ClusterRouter>(o.endpoint, o.connection, o.clusterAddressing);
        if (!router->isCluster()) router.reset();
    } catch (const Error&) {
        router.reset();  // connecting to it below reports why
    }
    if (!router) {
        NodeWatchSetup s = setupFor(o, o.endpoint, {}, -1);
        if (o.scanReplicas) ev.push_back(noteEvent(s.name, {WatchNoteId::NotReplicated, {s.name}}));
        nodes.push_back({std::make_unique<NodeWatch>(std::move(s))});
        return;
    }
    topologySeen = router->events().size();
    auto primaries = router->topology().primaries();
    std::erase_if(primaries, [](const ClusterNode* p) { return p->servedSlots.empty(); });
    std::sort(primaries.begin(), primaries.end(), [](const auto* a, const auto* b) {
        return a->servedSlots.front().first < b->servedSlots.front().first;
    });
    for (const ClusterNode* p : primaries) {
        NodeWatchSetup s = setupFor(o, router->endpointOf(*p), formatSlotRanges(p->servedSlots),
                                    p->servedSlots.front().first);
        if (o.scanReplicas) {
            s.replicas = clusterReplicas(*router);
            s.clusterReplicas = true;
        }
        nodes.push_back({std::make_unique<NodeWatch>(std::move(s))});
    }
}

std::vector<WatchEvent> ServerWatch::open() {
    impl_ = std::make_unique<Impl>();  // a retried open starts over
    std::vector<WatchEvent> events;
    if (options_.sentinel)
        impl_->openSentinel(options_, events);
    else
        impl_->openServer(options_, events);
    for (auto& n : impl_->nodes) n.node->open(events);
    impl_->opened = true;
    return events;
}

WatchEvent ServerWatch::Impl::noteEvent(std::string node, WatchNote note) {
    WatchEvent e;
    e.kind = WatchEvent::Kind::Note;
    e.node = std::move(node);
    e.note = std::move(note);
    return e;
}

// Behind Sentinel: the primary the Sentinels name; on a cluster: the node that serves the
// shard's first slot as the router knows it (asked again only when its policy says so: a
// lost node, a redirect, CLUSTERDOWN, or 30 s; topology_refresh_policy.h).
Endpoint ServerWatch::Impl::primaryNow(const ServerWatchOptions& o, const NodeWatch& node,
                                       bool nodeLost) {
    if (!router) return discoverPrimary(*o.sentinel, kQuick);
    const auto now = SteadyClock::now();
    if (nodeLost) router->noteNodeLost(now);
    router->followTopology(now);
    const ClusterNode* owner = router->topology().ownerOfSlot(node.firstSlot());
    return owner ? router->endpointOf(*owner) : node.primary();
}

void ServerWatch::Impl::followFailover(const ServerWatchOptions& o, Watched& w, bool askNow,
                                       std::vector<WatchEvent>& events) {
    const auto now = SteadyClock::now();
    if ((!o.sentinel && !router) || (!askNow && now < w.nextFailoverCheck)) return;
    w.nextFailoverCheck = now + 1s;
    Endpoint primary;
    try {
        primary = primaryNow(o, *w.node, askNow);
    } catch (const Error&) {
        return;  // asked again at the next check; the node's state says what fails meanwhile
    }
    const std::string from = w.node->primary().display();
    if (primary.display() == from || !w.node->moveTo(primary, events)) return;
    WatchEvent e;
    e.kind = WatchEvent::Kind::Failover;
    e.node = w.node->name();
    e.from = from;
    e.to = primary.display();
    e.shard = w.node->shard();
    e.sentinel = o.sentinel.has_value();
    events.push_back(std::move(e));
}

void ServerWatch::Impl::reportRows(std::vector<std::optional<WatchUpdate>>& updates,
                                   std::vector<WatchEvent>& events) {
    for (std::size_t i = 0; i < nodes.size() && i < updates.size(); ++i) {
        if (!updates[i]) continue;
        if (updates[i]->fullSpeedScan)
            events.push_back(noteEvent(nodes[i].node->name(), {WatchNoteId::FullSpeedScan, {}}));
        WatchEvent e;
        e.kind = WatchEvent::Kind::Rows;
        e.node = nodes[i].node->name();
        e.rows = std::move(*updates[i]);
        events.push_back(std::move(e));
        if (nodes[i].node->takeResyncDone()) {
            WatchEvent done;
            done.kind = WatchEvent::Kind::Resync;
            done.node = nodes[i].node->name();
            done.complete = true;
            events.push_back(std::move(done));
        }
    }
}

std::vector<WatchEvent> ServerWatch::step(std::stop_token stop) {
    std::vector<WatchEvent> events;
    if (!impl_->opened) return events;
    Impl& d = *impl_;
    const auto now = SteadyClock::now();
    const bool switched = d.switches && d.switches->switched();
    if (now < d.nextRound && !switched) return events;
    d.nextRound = now + options_.watch.pollInterval;
    std::vector<std::optional<WatchUpdate>> updates(d.nodes.size());
    for (std::size_t i = 0; i < d.nodes.size() && !stop.stop_requested(); ++i) {
        Impl::Watched& w = d.nodes[i];
        d.followFailover(options_, w, switched, events);
        updates[i] = w.node->step(stop, events);
        if (stop.stop_requested()) {
            updates[i].reset();  // a stopped read reports a cancelled read, not news
            break;
        }
        if (updates[i] && !updates[i]->connected) d.followFailover(options_, w, true, events);
    }
    if (!stop.stop_requested()) d.handOff(options_, updates, events);
    d.reportRows(updates, events);
    d.watchNewPrimaries(options_, events);  // one given slots without a redirect seen
    d.reportClusterHealth(events);
    return events;
}

std::vector<WatchEvent> ServerWatch::waitForEvents(std::chrono::milliseconds wait,
                                                   std::stop_token stop) {
    std::vector<WatchEvent> events;
    Impl& d = *impl_;
    const auto slice = std::max<std::chrono::milliseconds>(
        10ms, wait / static_cast<long>(std::max<std::size_t>(1, d.nodes.size())));
    std::vector<std::optional<WatchUpdate>> updates(d.nodes.size());
    bool waited = false, redirected = false;
    for (std::size_t i = 0; i < d.nodes.size() && !stop.stop_requested(); ++i) {
        auto u = d.nodes[i].node->waitForEvents(slice, stop, events);
        waited = waited || u.has_value();
        if (u && anyRows(*u)) {
            redirected = redirected || !u->redirected.empty();
            updates[i] = std::move(u);
        }
    }
    if (!waited) sleepUnlessStopped(wait, stop);  // nothing followed: just the wait
    if (stop.stop_requested()) return events;
    if (redirected) d.handOff(options_, updates, events);
    d.reportRows(updates, events);
    return events;
}

SteadyClock::time_point ServerWatch::nextStepAt() const {
    return impl_->nextRound;
}

void ServerWatch::requestRescan(bool fullSpeed) {
    for (auto& w : impl_->nodes)
        if (LockWatch* watch = w.node->watch()) watch->requestRescan(fullSpeed);
    impl_->nextRound = {};
}

std::vector<WatchEvent> ServerWatch::setPatterns(const std::vector<std::string>& patterns) {
    ScanOptions scan = options_.watch.scan;
    scan.patterns = patterns;
    validate(scan);  // throws before anything changed
    options_.watch.scan = scan;
    std::string joined;
    for (const auto& p : patterns) joined += (joined.empty() ? "" : " ") + p;
    for (auto& w : impl_->nodes) w.node->setPatterns(patterns);
    impl_->nextRound = {};
    return {Impl::noteEvent({}, {WatchNoteId::PatternsChanged, {joined}})};
}

void ServerWatch::setFocus(const std::vector<std::string>& keys) {
    for (auto& w : impl_->nodes) {
        LockWatch* watch = w.node->watch();
        if (!watch) continue;
        std::vector<std::string> own;  // a key is read on the node that holds it
        for (const auto& k : keys)
            if (watch->table().find(k)) own.push_back(k);
        watch->setFocus(std::move(own));
    }
}

void ServerWatch::setBudget(double share) {
    if (!(share > 0.0 && share <= 1.0))
        throw InvalidArgumentError("the load budget must be above 0% and at most 100%");
    // Each node keeps it for the watches it opens later (a failover, a replica, new patterns).
    for (auto& w : impl_->nodes) w.node->setBudget(share);
    options_.watch.budget = share;
}

std::vector<WatchEvent> ServerWatch::setJudging(const WatchJudging& judging) {
    const bool rescan = judging.includeNonLocks && !options_.watch.includeNonLocks;
    options_.watch.includeNonLocks = judging.includeNonLocks;
    options_.watch.doctor.heldTooLong = judging.heldTooLong;
    std::vector<std::optional<WatchUpdate>> updates;
    for (auto& w : impl_->nodes) {
        auto u = w.node->setJudging(judging);
        updates.push_back(u && anyRows(*u) ? std::move(u) : std::nullopt);
    }
    std::vector<WatchEvent> events;
    impl_->reportRows(updates, events);
    if (rescan) impl_->nextRound = {};
    return events;
}

std::vector<WatchedNode> ServerWatch::nodes() const {
    std::vector<WatchedNode> out;
    for (const auto& w : impl_->nodes) out.push_back(w.node->view());
    return out;
}

LockWatch* ServerWatch::watchOf(const std::string& node) {
    for (auto& w : impl_->nodes)
        if (w.node->name() == node) return w.node->watch();
    return nullptr;
}

bool ServerWatch::isCluster() const {
    return impl_->router != nullptr;
}

}  // namespace lockscope::inspect
