// The cluster half of ConnectionWorker (connection_worker.h): whether its server is a node of
// a Redis Cluster, following the topology (failovers, slot moves), handing a moved slot's
// locks to the new owner's worker and taking them, and routing actions to a key's slot owner.

#include "lockscope/errors.h"
#include "lockscope/inspect/cluster_watch_hand_off.h"
#include "session/cluster_members.h"
#include "session/connection_worker.h"
#include "session/lock_companions.h"
#include "session/tsan_handover.h"

namespace lockscope::ui {

void ConnectionWorker::askAboutCluster() {
    // Behind Sentinel there is no cluster to ask about (Sentinel does not manage cluster
    // nodes), and the profile's endpoint is no server at all: its host is the default or the
    // first Sentinel's, which must not be sent the data nodes' password.
    if (clusterAsked_ || !profile_.clusterOf.isEmpty() || !profile_.sentinelUrl.isEmpty()) return;
    clusterAsked_ = true;
    try {
        // Through the profile's address map: the nodes' announced addresses may be
        // unreachable from here (NAT, containers, a tunnel).
        cluster_ = std::make_unique<inspect::ClusterRouter>(
            profile_.endpoint, ConnectionOptions{.readOnly = profile_.readOnly},
            profile_.clusterAddressing);
        auto members = describeClusterMembers(*cluster_, profile_.endpoint);
        if (!members) {
            cluster_.reset();
            return;
        }
        logNote(members->topologyNote);
        clusterPrimaries_ = members->otherPrimaries;
        clusterNodeLines_ = members->nodeLines;
        emit clusterFound(instance_, members->nodeLines, members->otherPrimaries,
                          members->otherPrimaryTlsNames);
    } catch (const Error& e) {
        cluster_.reset();
        logNote(tr("could not ask whether %1 is part of a cluster: %2")
                    .arg(instance_, QString::fromStdString(e.what())));
    }
}

void ConnectionWorker::followCluster() {
    if (!cluster_) return;
    const auto now = std::chrono::steady_clock::now();
    if (clusterNodeLost_.exchange(false)) cluster_->noteNodeLost(now);
    if (clusterRedirect_.exchange(false)) cluster_->noteRedirect();
    try {
        if (!cluster_->followTopology(now)) return;
        logClusterEvents();
        auto members = describeClusterMembers(*cluster_, profile_.endpoint);
        // New slot ranges too (a slot moved): the sidebar and the Node column show them.
        if (members && (members->otherPrimaries != clusterPrimaries_ ||
                        members->nodeLines != clusterNodeLines_)) {
            clusterPrimaries_ = members->otherPrimaries;
            clusterNodeLines_ = members->nodeLines;
            emit clusterFound(instance_, members->nodeLines, members->otherPrimaries,
                              members->otherPrimaryTlsNames);
        }
    } catch (const Error&) {
        // No node answered this time: the router asks again in a second.
    }
}

void ConnectionWorker::logClusterEvents() {
    if (!cluster_) return;
    const auto& events = cluster_->events();
    for (; clusterEventsSeen_ < events.size(); ++clusterEventsSeen_)
        logNote(tr("cluster topology changed: %1")
                    .arg(QString::fromStdString(events[clusterEventsSeen_])));
}

void ConnectionWorker::handOffRedirected(inspect::WatchUpdate& update) {
    if (update.redirected.empty()) return;
    inspect::ClusterRouter* router = actionRouter();
    if (!router) return;
    std::vector<inspect::SlotGift> gifts;
    try {
        gifts = inspect::giveUpRedirectedSlots(*router, {watch_.get(), profile_.endpoint}, update);
    } catch (const Error& e) {
        // A node lost meanwhile: the keys stay as last seen, and the next round asks again.
        router->noteError(e, std::chrono::steady_clock::now());
        if (dynamic_cast<const IoError*>(&e) && router == memberRouter_.get())
            memberRouter_.reset();
        return;
    }
    logClusterEvents();
    for (auto& gift : gifts) {
        const QString to = QString::fromStdString(gift.to.display());
        logNote(tr("cluster topology changed: slot %1 moved to %2; its %3 lock(s) follow it there")
                    .arg(gift.slot)
                    .arg(QString::fromStdString(gift.to.host + ":" + std::to_string(gift.to.port)))
                    .arg(gift.records.size()));
        QVector<inspect::LockRecord> records(std::make_move_iterator(gift.records.begin()),
                                             std::make_move_iterator(gift.records.end()));
        handOver(records.constData());  // read on the taker's thread (see tsan_handover.h)
        emit slotGiven(instance_, to, gift.slot, records);
    }
}

void ConnectionWorker::adoptSlot(const QString& from, int slot,
                                 const QVector<inspect::LockRecord>& records) {
    takeOver(records.constData());
    std::vector<inspect::LockRecord> given(records.begin(), records.end());
    if (!watch_ || stopped_) {
        // Not connected yet (a worker just opened for the slot's new owner) or not now: the
        // rows move here at once, and the next watch's first rescan reads them with this
        // history (before, they stayed with the node that gave the slot away).
        const auto here = std::make_shared<const std::string>(instance_.toStdString());
        QVector<inspect::LockRecord> moved;
        moved.reserve(records.size());
        for (auto& r : given) {
            r.instance = here;
            moved.append(r);
            memory_.table.observe(std::move(r));
        }
        handOver(moved.constData());
        emit locksMoved(from, instance_, moved, {});
        return;
    }
    try {
        inspect::WatchUpdate update = watch_->adoptSlot(slot, std::move(given));
        completeFromTable(update.changed, watch_->table());
        QVector<inspect::LockRecord> moved(std::make_move_iterator(update.changed.begin()),
                                           std::make_move_iterator(update.changed.end()));
        QStringList gone;
        for (const auto& key : update.removed) gone << QString::fromStdString(key);
        handOver(moved.constData());
        handOver(gone.constData());
        emit locksMoved(from, instance_, moved, gone);
    } catch (const Error&) {
        nextStepAt_ = {};  // the next step finds out what happened and reports it
        scheduleNext(0);
    }
}

inspect::ClusterRouter* ConnectionWorker::actionRouter() {
    if (cluster_) return cluster_.get();
    if (profile_.clusterOf.isEmpty()) return nullptr;  // a plain server
    // Seeded at this worker's own node: the topology is asked only when a key answers MOVED.
    if (!memberRouter_)
        memberRouter_ = std::make_unique<inspect::ClusterRouter>(
            profile_.endpoint, ConnectionOptions{.readOnly = profile_.readOnly},
            profile_.clusterAddressing);
    return memberRouter_.get();
}

}  // namespace lockscope::ui
