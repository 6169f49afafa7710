#pragma once
// One watched primary of a ServerWatch (server_watch.h): the connection it reads (the primary,
// or a replica of it with scan replicas), its LockWatch, its state and its backoff. A failed
// read of the same server keeps the watch, which reconnects and rescans at the next attempt
// (a restart is told by the run_id); moving to another server (a replica, the primary after
// a replica stopped, a new primary after a failover) starts a new LockWatch with the old one's
// locks and history, and forgets the run_id: another server is no restart.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "lockscope/connection.h"
#include "lockscope/inspect/lock_watch.h"
#include "lockscope/inspect/watch/server_watch.h"
#include "lockscope/inspect/watch/watch_event.h"
#include "node_liveness.h"
#include "reconnect_backoff.h"
#include "replica_choice.h"

namespace lockscope::inspect {

struct NodeWatchSetup {
    std::string name;  // the node's name in events (the server it was opened at)
    Endpoint primary;
    std::string shard;   // a cluster's slots ("0-5460") or a Sentinel service; may be empty
    int firstSlot = -1;  // on a cluster: the slot whose owner is this shard's primary
    WatchOptions watch;
    ConnectionOptions connection;
    ReplicaLister replicas;  // set with scan replicas
    bool clusterReplicas = false;
    std::chrono::milliseconds replicaRetry{10000};
    std::function<void(Connection&)> onConnection;  // ServerWatchOptions::onNodeConnection
    std::optional<LivenessOptions> liveness;        // ServerWatchOptions::liveness
};

class NodeWatch {
  public:
    explicit NodeWatch(NodeWatchSetup setup);
    ~NodeWatch();

    // Opens what it reads (a replica when asked and one answers, else the primary). Throws
    // the primary's connection errors; a note says which server is read.
    void open(std::vector<WatchEvent>& events);
    bool due(SteadyClock::time_point now) const { return !watch_ || now >= retryAt_; }
    // One read when due: opens first if needed, returns the update (also when it failed to
    // read: !connected), emits the state changes. Throws what LockWatch::step throws but for
    // a server busy for a while (LOADING, BUSY, MASTERDOWN, TRYAGAIN), which is a failed read.
    std::optional<WatchUpdate> step(std::stop_token stop, std::vector<WatchEvent>& events);
    // Between steps: keyspace notifications (nothing when none are followed).
    std::optional<WatchUpdate> waitForEvents(std::chrono::milliseconds wait, std::stop_token stop,
                                             std::vector<WatchEvent>& events);
    // A failover: reads `primary` from now on, keeping the locks. False when it cannot be
    // reached yet (asked again later).
    bool moveTo(const Endpoint& primary, std::vector<WatchEvent>& events);
    void setPatterns(const std::vector<std::string>& patterns);
    // The watch's load budget now and the next watch's (ServerWatch::setBudget checked it).
    void setBudget(double share);
    // The watch's judging now and the next watch's: what a view must change (none unopened).
    std::optional<WatchUpdate> setJudging(const WatchJudging& judging);

    const std::string& name() const { return setup_.name; }
    const Endpoint& primary() const { return setup_.primary; }
    int firstSlot() const { return setup_.firstSlot; }
    const std::string& shard() const { return setup_.shard; }
    LockWatch* watch() { return watch_.get(); }
    const LockWatch* watch() const { return watch_.get(); }
    // The endpoint a redirect names this node by (what it reads when that is the primary).
    Endpoint readEndpoint() const { return connection_ ? connection_->endpoint() : primary(); }
    bool readsReplica() const { return readsReplica_; }
    bool failedLastRead() const { return state_ == NodeState::Reconnecting; }
    SteadyClock::time_point retryAt() const { return retryAt_; }
    WatchedNode view() const;
    // After the update that ended a resync (a full pass once the node answers again): true
    // once, for the Resync event that follows its rows.
    bool takeResyncDone() { return std::exchange(resyncDone_, false); }

  private:
    void watchOn(std::unique_ptr<Connection> connection, bool replica);
    void note(const WatchNote& n, std::vector<WatchEvent>& events);
    void returnToReplica(std::vector<WatchEvent>& events);
    WatchUpdate readOnce(std::stop_token stop);
    void afterRead(WatchUpdate& update, std::vector<WatchEvent>& events);
    void noticeRestart(WatchUpdate& update);
    void setState(NodeState state, const std::string& error, std::vector<WatchEvent>& events);
    void judgeHolders(WatchUpdate& update);
    void startLiveness(bool replica);

    NodeWatchSetup setup_;
    std::unique_ptr<Connection> connection_;  // declared before watch_: the watch goes first
    std::unique_ptr<LockWatch> watch_;
    // Reading a replica: the primary, for the liveness reader (the holders' connections are
    // the primary's: a replica's CLIENT LIST would show none of them). Before liveness_.
    std::unique_ptr<Connection> livenessConnection_;
    std::unique_ptr<NodeLiveness> liveness_;  // with the liveness option
    WatchMemory memory_;                      // what a replaced watch knew, for the next one
    bool readsReplica_ = false;
    WatchNote lastChoice_;
    bool choiceNoted_ = false;
    NodeState state_ = NodeState::Connecting;
    std::string error_;
    ReconnectBackoff backoff_;
    SteadyClock::time_point retryAt_{}, replicaRetryAt_{};
    int pollsOk_ = 0, pollsFailed_ = 0;
    bool scanned_ = false;
    std::string lastRunId_;  // of the server read, at its last answer
    bool resyncing_ = false, resyncDone_ = false;
};

}  // namespace lockscope::inspect
