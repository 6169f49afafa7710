#pragma once
// Everything a run's future depends on, as one copyable value: the model Redis, the
// resources, the actors with their program state, the faults, the random generator and
// the rule-keeping (who holds the lock, which runs are alive, the outcome so far).
// A checkpoint is a copy of the World; the Recording lives beside it.

#include <cstdint>
#include <string>
#include <vector>

#include "lockscope/sim/actor.h"
#include "lockscope/sim/fault_plan.h"
#include "lockscope/sim/fenced_resource.h"
#include "lockscope/sim/finance_outbox.h"
#include "lockscope/sim/model_redis.h"
#include "lockscope/sim/outcome.h"
#include "lockscope/sim/output_file.h"
#include "lockscope/sim/seeded_rng.h"
#include "lockscope/sim/timeline.h"

namespace lockscope::sim {

enum class RunState { Running, Completed, Aborted, Crashed };

struct InstanceRun {
    std::string actor;
    VirtualMs start = 0;
    RunState state = RunState::Running;
    std::int64_t fence = 0;
};

// One tenure of the lock key: who set it, with what, and how it ended.
struct Holding {
    std::string holder;
    std::string token;
    std::int64_t fence = 0;
    VirtualMs since = 0;
    bool hasTtl = false;
    bool current = true;
    VirtualMs lostAt = 0;
    std::string lostHow;  // "expired", "deleted by A"
};

// "expired at 10.000s", "was deleted by A at 40.000s": for narration.
std::string describeLoss(const Holding& holding);

struct World {
    VirtualMs now = 0;
    std::uint64_t seq = 0;  // hands out wakeSeq values
    int steps = 0;
    int userActionsApplied = 0;  // Replay's user actions already turned into faults

    ModelRedis redis;  // the server in simulation, the shadow of the real one in live mode
    ModelFencedStore store;
    OutputFile file;
    FinanceOutbox outbox;
    std::vector<ActorPtr> actors;
    FaultPlan faults;
    SeededRng rng;

    std::string lockKey;  // the key whose lane, ownership and PTTL are drawn
    std::string fenceKey;
    std::string reportResource = "report:daily";
    std::string reportDate = "2026-11-28";
    LaneId keyLane = -1, fileLane = -1, outboxLane = -1, storeLane = -1;

    std::vector<Holding> holdings;  // history of the lock key, the last may be current
    std::vector<InstanceRun> runs;
    std::vector<Interval> openIntervals;
    OutcomeSummary outcome;

    Actor* actor(const std::string& name);
    const Actor* actor(const std::string& name) const;
    Holding* currentHolding();
    const Holding* currentHolding() const;
    InstanceRun* run(const std::string& actor);
    const InstanceRun* run(const std::string& actor) const;
    // The most recent holding by this actor, current or not.
    const Holding* lastHoldingOf(const std::string& actor) const;
};

}  // namespace lockscope::sim
