#pragma once
// What a ServerWatch (server_watch.h) reports, as values a front end can copy to another
// thread: the rows of a node (its LockWatch's update), a node's connection state, a change of
// the cluster's topology, a failover, and notes. A note is an id with its arguments, so the
// window, `watch` and the exporter say the same thing (describe() writes the English text)
// and a test can check what was said without matching sentences.

#include <chrono>
#include <string>
#include <vector>

#include "lockscope/inspect/lock_watch.h"

namespace lockscope::inspect {

enum class WatchNoteId {
    SentinelPrimary,    // {service, primary}: the primary the Sentinels name, at the start
    ReplicaChosen,      // {replica, primary, shard}: a replica is read instead of the primary
    NoReplicaAnswers,   // {primary, shard}: no replica answers, the primary is read
    ReplicaListFailed,  // {primary, shard, error}: the replicas could not be listed
    NotReplicated,      // {instance}: scan replicas asked of a single server: it is read
    BackToReplica,      // {replica, primary}: a replica answers again, the watch moved there
    SlotMoved,          // {slot, to, count}: a slot's locks followed it to its new owner
    ClusterDown,        // {down nodes, slots without a primary}: the cluster cannot serve
    ClusterUp,          // {}: every slot has a primary again
    FullSpeedScan,      // {}: the rescan asked at full speed ignores the budget
    PatternsChanged,    // {patterns}: every node's watch rescans with the new patterns
};

struct WatchNote {
    WatchNoteId id = WatchNoteId::FullSpeedScan;
    std::vector<std::string> args;
    bool operator==(const WatchNote&) const = default;
};

// The note as a sentence for the command log, stderr or a status line.
std::string describe(const WatchNote& note);
// The id's stable name ("replica-chosen"), for JSON lines and tests.
const char* toString(WatchNoteId id);

enum class NodeState {
    Connecting,    // not read yet
    Connected,     // the last read answered
    Reconnecting,  // the last read failed; retried after the backoff
    Failed,        // retrying cannot help (credentials, a denied command, an unknown service)
};
const char* toString(NodeState state);

struct WatchEvent {
    enum class Kind {
        Rows,       // node, rows: the node's update (also sent when !rows.connected)
        NodeState,  // node, state, error, retryIn: the node's state changed (or its error)
        Topology,   // change: one line of what the cluster's topology changed
        Failover,   // node, from, to, shard: another server is the primary now
        Note,       // node (may be empty: the whole connection), note
        // node, complete: false when a node's view stopped being complete (its connection was
        // lost, it restarted or is loading), true after the first full pass once it answers.
        Resync,
    };
    Kind kind = Kind::Note;
    std::string node;  // the node's name: Endpoint::display() of the server it was opened at
    WatchUpdate rows;
    NodeState state = NodeState::Connecting;
    std::string error;
    std::chrono::milliseconds retryIn{0};
    std::string change;
    std::string from, to;  // Endpoint::display() of the old and the new primary
    // Which part of the data failed over: behind Sentinel the service ("mymaster"), on a
    // cluster the shard's slots ("0-5460"). sentinel tells which.
    std::string shard;
    bool sentinel = false;
    WatchNote note;
    bool complete = false;  // Resync
};

}  // namespace lockscope::inspect
