#include "node_watch.h"

#include "lockscope/errors.h"

namespace lockscope::inspect {
namespace {

// A server busy for a while (a long script, loading its data after a restart, a replica
// without its master, a slot half migrated, a cluster missing a primary): a failed read,
// retried, never a reason to stop.
// Told by the reply's code, never by its text.
bool passes(const ReplyError& e) {
    switch (e.code()) {
        case ServerErrorCode::Busy:
        case ServerErrorCode::Loading:
        case ServerErrorCode::MasterDown:
        case ServerErrorCode::TryAgain:
        case ServerErrorCode::ClusterDown:  // a primary of the cluster is down, until it is back
            return true;
        default:
            return false;
    }
}

WatchUpdate failedRead(const std::string& error) {
    WatchUpdate u;
    u.connected = false;
    u.error = error;
    u.at = SteadyClock::now();
    return u;
}

}  // namespace

NodeWatch::NodeWatch(NodeWatchSetup setup) : setup_(std::move(setup)) {}

NodeWatch::~NodeWatch() {
    watch_.reset();  // before the connection it reads
    liveness_.reset();
    livenessConnection_.reset();
}

void NodeWatch::note(const WatchNote& n, std::vector<WatchEvent>& events) {
    WatchEvent e;
    e.kind = WatchEvent::Kind::Note;
    e.node = setup_.name;
    e.note = n;
    events.push_back(std::move(e));
}

void NodeWatch::watchOn(std::unique_ptr<Connection> connection, bool replica) {
    if (watch_) {
        memory_ = watch_->takeMemory();
        memory_.runId.clear();  // another server than before: a different run_id is no restart
    }
    watch_.reset();
    liveness_.reset();  // it reads the connection replaced here; its evidence was that server's
    connection_ = std::move(connection);
    if (setup_.onConnection) setup_.onConnection(*connection_);
    startLiveness(replica);
    readsReplica_ = replica;
    lastRunId_.clear();
    WatchOptions options = setup_.watch;
    options.doctor.replicaOnPurpose = replica;  // no "point it at the primary" advice
    watch_ = std::make_unique<LockWatch>(*connection_, options, std::exchange(memory_, {}));
}

void NodeWatch::open(std::vector<WatchEvent>& events) {
    const auto now = SteadyClock::now();
    replicaRetryAt_ = now + setup_.replicaRetry;
    if (setup_.replicas) {
        ReplicaPick pick = pickReplica(setup_.replicas, setup_.primary, setup_.shard,
                                       setup_.clusterReplicas, setup_.connection);
        if (!choiceNoted_ || !(pick.note == lastChoice_)) note(pick.note, events);
        lastChoice_ = pick.note;
        choiceNoted_ = true;
        if (pick.connection) {
            watchOn(std::move(pick.connection), true);
            return;
        }
    }
    watchOn(std::make_unique<Connection>(Connection::open(setup_.primary, setup_.connection)),
            false);
}

void NodeWatch::returnToReplica(std::vector<WatchEvent>& events) {
    if (!setup_.replicas || readsReplica_ || !watch_) return;
    const auto now = SteadyClock::now();
    if (now < replicaRetryAt_) return;
    replicaRetryAt_ = now + setup_.replicaRetry;
    ReplicaPick pick = pickReplica(setup_.replicas, setup_.primary, setup_.shard,
                                   setup_.clusterReplicas, setup_.connection);
    if (!pick.connection) return;  // still none: the primary is read, as noted
    lastChoice_ = pick.note;
    note({WatchNoteId::BackToReplica, {pick.note.args.at(0), setup_.primary.display()}}, events);
    watchOn(std::move(pick.connection), true);
}

WatchUpdate NodeWatch::readOnce(std::stop_token stop) {
    try {
        return watch_->step(stop);
    } catch (const ReplyError& e) {
        if (!passes(e)) throw;
        return failedRead(e.what());
    }
}

std::optional<WatchUpdate> NodeWatch::step(std::stop_token stop, std::vector<WatchEvent>& events) {
    if (!due(SteadyClock::now())) return std::nullopt;
    if (!watch_) {
        try {
            open(events);
        } catch (const IoError& e) {
            WatchUpdate u = failedRead(e.what());
            afterRead(u, events);
            return u;
        } catch (const ReplyError& e) {
            if (!passes(e)) throw;
            WatchUpdate u = failedRead(e.what());
            afterRead(u, events);
            return u;
        }
    }
    returnToReplica(events);
    WatchUpdate u = readOnce(stop);
    // A read cut short by the stop reports a cancelled read, not news (nor a first scan).
    if (stop.stop_requested()) return std::nullopt;
    judgeHolders(u);
    afterRead(u, events);
    return u;
}

std::optional<WatchUpdate> NodeWatch::waitForEvents(std::chrono::milliseconds wait,
                                                    std::stop_token stop,
                                                    std::vector<WatchEvent>& events) {
    if (!watch_ || state_ != NodeState::Connected) return std::nullopt;
    WatchUpdate u;
    try {
        u = watch_->waitForEvents(wait, stop);
    } catch (const ReplyError& e) {
        if (!passes(e)) throw;
        return std::nullopt;  // the next step reads again and reports it
    }
    judgeHolders(u);
    if (!u.connected) afterRead(u, events);
    return u;
}

// Holders connect to the primary: on a replica, CLIENT LIST names none of them and every job
// queue worker would look gone. So the reader reads the primary; when it cannot be reached,
// nothing is judged (no verdict rather than a false one).
void NodeWatch::startLiveness(bool replica) {
    liveness_.reset();
    livenessConnection_.reset();
    if (!setup_.liveness) return;
    if (!replica) {
        liveness_ = std::make_unique<NodeLiveness>(*connection_, *setup_.liveness);
        return;
    }
    try {
        livenessConnection_ =
            std::make_unique<Connection>(Connection::open(setup_.primary, setup_.connection));
    } catch (const Error&) {
        return;
    }
    liveness_ = std::make_unique<NodeLiveness>(*livenessConnection_, *setup_.liveness);
}

void NodeWatch::judgeHolders(WatchUpdate& update) {
    if (liveness_ && update.connected) liveness_->afterRead(*watch_, update, SteadyClock::now());
}

void NodeWatch::setState(NodeState state, const std::string& error,
                         std::vector<WatchEvent>& events) {
    if (state == state_ && error == error_) return;
    state_ = state;
    error_ = error;
    WatchEvent e;
    e.kind = WatchEvent::Kind::NodeState;
    e.node = setup_.name;
    e.state = state;
    e.error = error;
    e.retryIn = backoff_.current();
    events.push_back(std::move(e));
}

// A restart the watch itself could not report: a server that answered INFO with its new
// run_id while still loading its data (LOADING) let the watch's first step after the
// reconnect fail after the restart was seen, and the rescan that followed said nothing.
void NodeWatch::noticeRestart(WatchUpdate& update) {
    const std::string& runId = watch_->server().runId;
    if (update.restartNote.empty() && !lastRunId_.empty() && !runId.empty() && runId != lastRunId_)
        update.restartNote = "server restarted (run_id " + lastRunId_.substr(0, 8) + "… → " +
                             runId.substr(0, 8) + "…): locks it held before are gone";
    if (!runId.empty()) lastRunId_ = runId;
}

void NodeWatch::afterRead(WatchUpdate& update, std::vector<WatchEvent>& events) {
    if (update.connected) {
        noticeRestart(update);
        if (resyncing_ && update.rescanned) {
            resyncing_ = false;
            resyncDone_ = true;
        }
        ++pollsOk_;
        scanned_ = true;
        backoff_.succeeded();
        retryAt_ = {};
        setState(NodeState::Connected, {}, events);
        return;
    }
    ++pollsFailed_;
    retryAt_ = SteadyClock::now() + backoff_.failed();
    if (!resyncing_ && pollsOk_ > 0) {
        // What is shown was read before the loss: incomplete until a full pass after it.
        resyncing_ = true;
        WatchEvent e;
        e.kind = WatchEvent::Kind::Resync;
        e.node = setup_.name;
        e.complete = false;
        events.push_back(std::move(e));
    }
    if (readsReplica_) {
        // The replica stopped: the next attempt chooses again (another replica, or the
        // primary), with what this watch knew.
        memory_ = watch_->takeMemory();
        memory_.runId.clear();
        watch_.reset();
        liveness_.reset();
        livenessConnection_.reset();
        connection_.reset();
        readsReplica_ = false;
    }
    setState(NodeState::Reconnecting, update.error, events);
}

bool NodeWatch::moveTo(const Endpoint& primary, std::vector<WatchEvent>& events) {
    std::unique_ptr<Connection> connection;
    try {
        connection = std::make_unique<Connection>(Connection::open(primary, setup_.connection));
    } catch (const Error&) {
        return false;  // not reachable yet: asked again at the next check
    }
    setup_.primary = primary;
    watchOn(std::move(connection), false);
    watch_->requestRescan();  // what the new primary holds, now (a failover can lose locks)
    replicaRetryAt_ = {};     // with scan replicas: a replica of the new primary, at once
    backoff_.succeeded();
    retryAt_ = {};
    (void)events;
    return true;
}

void NodeWatch::setPatterns(const std::vector<std::string>& patterns) {
    setup_.watch.scan.patterns = patterns;
    if (!watch_) return;
    WatchMemory memory = watch_->takeMemory();  // the same server: its run_id stays
    WatchOptions options = setup_.watch;
    options.doctor.replicaOnPurpose = readsReplica_;
    watch_ = std::make_unique<LockWatch>(*connection_, options, std::move(memory));
}

void NodeWatch::setBudget(double share) {
    setup_.watch.budget = share;
    if (watch_) watch_->setBudget(share);
}

std::optional<WatchUpdate> NodeWatch::setJudging(const WatchJudging& judging) {
    setup_.watch.includeNonLocks = judging.includeNonLocks;
    setup_.watch.doctor.heldTooLong = judging.heldTooLong;
    if (!watch_) return std::nullopt;
    return watch_->setJudging(judging);
}

WatchedNode NodeWatch::view() const {
    WatchedNode v;
    v.name = setup_.name;
    v.endpoint = readEndpoint().display();
    v.shard = setup_.shard;
    v.watch = watch_.get();
    v.state = state_;
    v.error = error_;
    v.pollsOk = pollsOk_;
    v.pollsFailed = pollsFailed_;
    v.scanned = scanned_;
    v.readsReplica = readsReplica_;
    return v;
}

}  // namespace lockscope::inspect
