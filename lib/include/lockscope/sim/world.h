#pragma once
// Everything a run's future depends on, as one copyable value: the model Redis, the
// resources, the actors with their program state, the faults, the random generator and
// the rule-keeping (who holds the lock, which runs are alive, the outcome so far).
// A checkpoint is a copy of the World; the Recording lives beside it.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lockscope/sim/actor.h"
#include "lockscope/sim/booking_database.h"
#include "lockscope/sim/fault_plan.h"
#include "lockscope/sim/fenced_resource.h"
#include "lockscope/sim/finance_outbox.h"
#include "lockscope/sim/model_redis.h"
#include "lockscope/sim/outcome.h"
#include "lockscope/sim/output_file.h"
#include "lockscope/sim/seeded_rng.h"
#include "lockscope/sim/timeline.h"
#include "lockscope/sim/write_order.h"

namespace lockscope::sim {

enum class RunState { Running, Completed, Aborted, Crashed };

struct InstanceRun {
    std::string actor;
    VirtualMs start = 0;
    RunState state = RunState::Running;
    std::int64_t fence = 0;
};

// One tenure of a key whose holders are recorded (the lock key, a seat's hold): who set it,
// with what, and how it ended.
struct Holding {
    std::string key;
    std::string holder;
    std::string token;
    std::int64_t fence = 0;
    VirtualMs since = 0;
    bool hasTtl = false;
    bool current = true;
    VirtualMs lostAt = 0;
    std::string lostHow;  // "expired", "deleted by A"
};

// One Redis server of the story with the lock key's lane and ownership history on it.
// Single-server scenarios have one node; Redlock stories add one per primary, and a
// replica is a node whose writes arrive late (an actor forwarding them with a delay).
struct RedisNode {
    std::string name = "redis";
    ModelRedis redis;
    LaneId keyLane = -1;
    // History of every recorded key here (World::recordsHolders), oldest first; a key's last
    // holding may be current.
    std::vector<Holding> holdings;

    Holding* currentHolding(const std::string& key);
    const Holding* currentHolding(const std::string& key) const;
    // The most recent holding of key by this actor, current or not.
    const Holding* lastHoldingOf(const std::string& actor, const std::string& key) const;
};

// Asynchronous replication: every write on `from` reaches `to` lag ms later, as the key's
// resulting value and absolute expiry (what Redis sends its replicas).
struct ReplicationLink {
    int from = 0;
    int to = 1;
    VirtualMs lag = 0;
};

struct InFlightWrite {
    VirtualMs deliverAt = 0;
    int to = 0;
    int from = 0;  // the primary that sent it (a failover drops what its old primary sent)
    std::string key;
    std::optional<ModelEntry> entry;  // none: the key was deleted
    std::uint64_t seq = 0;
};

// What a client believes: that it holds `resource` (a lock key, a seat) since `since`. The
// rules compare beliefs, not keys: two clients believing at once is the failure the
// Redlock and failover stories are about, whatever the servers say.
struct Belief {
    std::string actor;
    std::string resource;
    VirtualMs since = 0;
    bool current = true;
    std::optional<VirtualMs> leaseEnds;  // when the key it set runs out (its TTL), if known
    int node = -1;                       // the node it set the key on; -1: several (Redlock)
};

// A client blocked in WAIT numreplicas timeout (wait_for_replicas.h): each replica acks once
// the last write its primary had sent it before the WAIT has arrived.
struct PendingWait {
    std::string actor;
    int node = 0;
    int numReplicas = 0;
    VirtualMs sentAt = 0;
    VirtualMs deadline = 0;
    std::vector<std::pair<int, std::uint64_t>> awaiting;  // replica, seq of its last write
    std::vector<int> acked;
    bool done = false;
    std::int64_t reply = 0;  // how many replicas acknowledged
};

// "expired at 10.000s", "was deleted by A at 40.000s": for narration.
std::string describeLoss(const Holding& holding);

struct World {
    VirtualMs now = 0;
    std::uint64_t seq = 0;  // hands out wakeSeq values
    int steps = 0;
    int userActionsApplied = 0;  // Replay's user actions already turned into faults

    // The servers: models in simulation, shadows of the real ones in live mode.
    std::vector<RedisNode> nodes = std::vector<RedisNode>(1);
    int primary = 0;  // the node clients should write to; a failover changes it
    std::vector<ReplicationLink> replication;
    std::vector<InFlightWrite> inFlight;
    ModelFencedStore store;
    std::string storeWriter;     // who wrote the report row last (for the narration)
    WriteOrder reportWrites;     // the report row's writes, judged stale or late (write_order.h)
    std::string emailClaimedBy;  // who claimed the report's date key first
    bool emailClaimedByHolder = true;  // whether it held the lock then
    BookingDatabase bookings;
    std::vector<Belief> beliefs;
    std::vector<PendingWait> waits;
    OutputFile file;
    FinanceOutbox outbox;
    std::vector<ActorPtr> actors;
    FaultPlan faults;
    SeededRng rng;

    std::string lockKey;  // the key whose lane, ownership and PTTL are drawn
    // Other keys whose holders are recorded like the lock key's, on their holders' lanes only
    // (seat-hold's seats other than A1): each buyer's lane shows its own seat's hold.
    std::vector<std::string> heldKeys;
    std::string fenceKey;
    std::string reportResource = "report:daily";
    std::string reportDate = "2026-11-28";
    LaneId fileLane = -1, outboxLane = -1, storeLane = -1;

    std::vector<InstanceRun> runs;
    std::vector<Interval> openIntervals;
    OutcomeSummary outcome;

    Actor* actor(const std::string& name);
    const Actor* actor(const std::string& name) const;
    RedisNode& node(int index = 0) { return nodes.at(static_cast<std::size_t>(index)); }
    const RedisNode& node(int index = 0) const { return nodes.at(static_cast<std::size_t>(index)); }
    // The first (often the only) server.
    ModelRedis& redis() { return nodes.front().redis; }
    const ModelRedis& redis() const { return nodes.front().redis; }
    // The lock key's holdings.
    Holding* currentHolding(int node = 0) { return this->node(node).currentHolding(lockKey); }
    const Holding* currentHolding(int node = 0) const {
        return this->node(node).currentHolding(lockKey);
    }
    const Holding* lastHoldingOf(const std::string& actor, int node = 0) const {
        return this->node(node).lastHoldingOf(actor, lockKey);
    }
    // Whether a command on key changes who holds it (the lock key, or one of heldKeys).
    bool recordsHolders(const std::string& key) const;
    InstanceRun* run(const std::string& actor);
    const InstanceRun* run(const std::string& actor) const;
};

}  // namespace lockscope::sim
