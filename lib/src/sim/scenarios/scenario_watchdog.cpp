// watchdog: Redisson's lock watchdog. A lease of 30 s renewed every 10 s keeps a job longer
// than the lease safe; a GC pause longer than the lease freezes the watchdog too, the key
// expires, b takes the lock and writes, and a wakes and writes its report over b's. Only a
// fencing token the store checks refuses that write.
#include "lockscope/sim/story_measures.h"
#include "scenario_catalog.h"
#include "sim/actors/watchdog_client.h"
#include "sim/narrator.h"

namespace lockscope::sim {

namespace {

const std::string kKey = "lock:{report:daily}", kFence = "fence:{report:daily}";

std::string introduction(const WatchdogClientConfig& a, VirtualMs pauseAt, VirtualMs pause,
                         VirtualMs bAt) {
    std::string s =
        "A lock library's watchdog (Redisson's lockWatchdogTimeout): a takes the lock "
        "with a " +
        formatDuration(a.leaseMs) + " lease for a job of " + formatDuration(a.job);
    s += a.renewEvery > 0 ? ", and its watchdog extends the lease every " +
                                formatDuration(a.renewEvery) + " while the job runs."
                          : ", with no watchdog: nothing extends the lease.";
    if (pause > 0)
        s += " At " + formatVirtualTime(pauseAt) + " a GC pause freezes a for " +
             formatDuration(pause) + ", the watchdog's thread with it.";
    s += " b wants the lock from " + formatVirtualTime(bAt) +
         ". For efficiency (a job that may rarely run twice) renewal is enough; for "
         "correctness it is not: a pause longer than the lease still lets two clients hold "
         "it, and only a fencing token the store checks refuses the stale write.";
    if (a.fenced) s += " Here the report store checks the token (WHERE fence < ?).";
    return s;
}

void build(World& world, Recording& recording, const ScenarioParams& params) {
    const LaneId laneA = addLane(recording, LaneKind::Instance, "a", "client with a watchdog");
    const LaneId laneB = addLane(recording, LaneKind::Instance, "b", "client with a watchdog");
    // Overlaps, stale writes and the fence: the lines of the Redlock and failover stories.
    world.outcome.countsBeliefOverlaps = true;
    world.lockKey = kKey;
    world.fenceKey = kFence;
    world.node().keyLane = addLane(recording, LaneKind::RedisKey, kKey, "Redis key");
    world.storeLane = addLane(recording, LaneKind::FencedStore, "reports.db", "report store");
    WatchdogClientConfig a;
    a.key = kKey;
    a.fenceKey = kFence;
    a.leaseMs = params.get("lease_ms");
    a.renewEvery = params.get("watchdog") == 1 ? params.get("renew_ms") : 0;
    a.job = params.get("job_ms");
    a.fenced = params.get("fencing") == 1;
    WatchdogClientConfig b = a;
    b.job = params.get("b_job_ms");
    b.retryEvery = params.get("b_retry_ms");
    const VirtualMs pauseAt = params.get("pause_at_ms"), pause = params.get("pause_ms"),
                    bAt = params.get("b_at_ms");
    if (pause > 0) world.faults.pauses.push_back({"a", pauseAt, pauseAt + pause});
    std::vector<Narrator::Line> lines = {{0, introduction(a, pauseAt, pause, bAt)}};
    addActor(world, std::make_unique<Narrator>(world.node().keyLane, lines), 0);
    addActor(world, std::make_unique<WatchdogClient>("a", laneA, a, world.rng.token()), 0);
    addActor(world, std::make_unique<WatchdogClient>("b", laneB, b, world.rng.token()), bAt);
}

}  // namespace

Scenario watchdogScenario() {
    Scenario s;
    s.name = "watchdog";
    s.title = "A watchdog renews the lease: safe for a long job, not for a pause past the lease";
    s.summary =
        "a's job runs longer than its lease; a watchdog extends the lease every renew_ms, so b "
        "is refused until a releases. A GC pause (pause_ms) longer than the lease freezes the "
        "watchdog too: the key expires, b takes the lock and writes, and a wakes and writes "
        "its report over b's. watchdog=0 shows the long job without renewal; fencing=1 lets "
        "the store refuse the stale write. The verdict after the run says which writes the "
        "store took.";
    s.params = {
        {"watchdog", "1: a watchdog extends the lease every renew_ms; 0: no renewal", 1, 0, 1},
        {"fencing", "1: the report write carries the lock's fencing token and the store checks it",
         0, 0, 1},
        {"lease_ms", "the lease (TTL) of the lock; Redisson's default is 30 s", 30000, 100,
         86400000},
        {"renew_ms", "how often the watchdog extends it (Redisson: a third of the lease)", 10000, 1,
         86400000},
        {"job_ms", "a's job, from taking the lock to writing its report", 60000, 0, 3600000},
        {"pause_at_ms", "when a's GC pause starts", 55000, 0, 3600000},
        {"pause_ms", "how long a is frozen, the watchdog with it (0 = no pause)", 40000, 0,
         3600000},
        {"b_at_ms", "when b first asks for the lock", 50000, 0, 3600000},
        {"b_retry_ms", "how long b waits before asking again after a refusal (0 = once)", 5000, 0,
         3600000},
        {"b_job_ms", "b's job, from taking the lock to writing its report", 5000, 0, 3600000},
    };
    s.keys = {kKey, kFence};
    s.liveRealMsPerVirtualSecond = 20;  // 90 virtual seconds in under two real ones
    // Did both hold it, and which writes did the store take (and which did it refuse)?
    s.measures = {measure::overlappingHolds(), measure::staleWritesAccepted(),
                  measure::staleWritesRejected()};
    s.fixedBy = "fencing=1";
    s.build = build;
    return s;
}

}  // namespace lockscope::sim
