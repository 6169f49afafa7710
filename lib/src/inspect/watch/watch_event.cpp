#include "lockscope/inspect/watch/watch_event.h"

namespace lockscope::inspect {
namespace {

const std::string& arg(const WatchNote& note, std::size_t i) {
    static const std::string none;
    return i < note.args.size() ? note.args[i] : none;
}

// "the shard with slots 0-5460" or "mymaster": what a replica or a primary serves.
std::string ofShard(const std::string& shard) {
    if (shard.empty()) return {};
    const bool slots = shard.find_first_not_of("0123456789-, ") == std::string::npos;
    return slots ? " (slots " + shard + ")" : " of \"" + shard + "\"";
}

}  // namespace

const char* toString(WatchNoteId id) {
    switch (id) {
        case WatchNoteId::SentinelPrimary:
            return "sentinel-primary";
        case WatchNoteId::ReplicaChosen:
            return "replica-chosen";
        case WatchNoteId::NoReplicaAnswers:
            return "no-replica-answers";
        case WatchNoteId::ReplicaListFailed:
            return "replica-list-failed";
        case WatchNoteId::NotReplicated:
            return "not-replicated";
        case WatchNoteId::BackToReplica:
            return "back-to-replica";
        case WatchNoteId::SlotMoved:
            return "slot-moved";
        case WatchNoteId::ClusterDown:
            return "cluster-down";
        case WatchNoteId::ClusterUp:
            return "cluster-up";
        case WatchNoteId::FullSpeedScan:
            return "full-speed-scan";
        case WatchNoteId::PatternsChanged:
            return "patterns-changed";
    }
    return "note";
}

std::string describe(const WatchNote& n) {
    switch (n.id) {
        case WatchNoteId::SentinelPrimary:
            return "Sentinel: the primary of \"" + arg(n, 0) + "\" is " + arg(n, 1);
        case WatchNoteId::ReplicaChosen:
            return "scanning replica " + arg(n, 0) + " of the primary " + arg(n, 1) +
                   ofShard(arg(n, 2)) + "; releases go to the primary";
        case WatchNoteId::NoReplicaAnswers:
            return "no online replica of " + arg(n, 0) + ofShard(arg(n, 1)) +
                   " answers: scanning the primary";
        case WatchNoteId::ReplicaListFailed:
            return "could not list the replicas of " + arg(n, 0) + ofShard(arg(n, 1)) + " (" +
                   arg(n, 2) + "): scanning the primary";
        case WatchNoteId::NotReplicated:
            return "scan replicas: " + arg(n, 0) +
                   " is a single server, neither a Redis Cluster nor behind Sentinel: scanning it";
        case WatchNoteId::BackToReplica:
            return "a replica answers again: scanning replica " + arg(n, 0) +
                   " instead of the primary " + arg(n, 1);
        case WatchNoteId::SlotMoved:
            return "cluster topology changed: slot " + arg(n, 0) + " moved to " + arg(n, 1) +
                   "; its " + arg(n, 2) + " lock(s) follow it there";
        case WatchNoteId::ClusterDown:
            return "the cluster is down: " + arg(n, 0) +
                   " not answering; slots without a primary: " + arg(n, 1);
        case WatchNoteId::ClusterUp:
            return "cluster: every primary answers again";
        case WatchNoteId::FullSpeedScan:
            return "rescanning at full speed, as asked: the load budget does not pace this scan";
        case WatchNoteId::PatternsChanged:
            return "patterns changed to " + arg(n, 0) + ": every node is scanned again with them";
    }
    return {};
}

const char* toString(NodeState state) {
    switch (state) {
        case NodeState::Connecting:
            return "connecting";
        case NodeState::Connected:
            return "connected";
        case NodeState::Reconnecting:
            return "reconnecting";
        case NodeState::Failed:
            return "failed";
    }
    return "unknown";
}

}  // namespace lockscope::inspect
