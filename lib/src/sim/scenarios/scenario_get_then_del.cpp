// get-then-del: the guide's reason the release must compare and delete atomically. "A GET
// then DEL from the client can interleave: your GET sees your token, the lock expires,
// another client acquires it, and your DEL removes theirs." atomic=1 releases with the
// guide's Lua script instead.
#include "lockscope/sim/story_measures.h"
#include "scenario_catalog.h"
#include "sim/actors/get_then_del_client.h"
#include "sim/narrator.h"

namespace lockscope::sim {

namespace {

const std::string kKey = "lock:{report:daily}";

void build(World& world, Recording& recording, const ScenarioParams& params) {
    world.outcome.scriptOnly = true;
    LaneId laneA = addLane(recording, LaneKind::Instance, "a", "releases the lock");
    LaneId laneB = addLane(recording, LaneKind::Instance, "b", "takes the lock next");
    LaneId laneC = addLane(recording, LaneKind::Instance, "c", "tries after a's release");
    world.lockKey = kKey;
    world.node().keyLane = addLane(recording, LaneKind::RedisKey, kKey, "Redis key");
    GetThenDelConfig a;
    a.key = kKey;
    a.ttlMs = params.get("ttl_ms");
    a.work = params.get("work_ms");
    a.gap = params.get("gap_ms");
    a.atomic = params.get("atomic") == 1;
    GetThenDelConfig other = a;
    other.releases = false;
    const VirtualMs bAt = params.get("b_at_ms"), cAt = params.get("c_at_ms");
    std::vector<Narrator::Line> lines = {
        {0,
         "The guide: \"The release must compare and delete atomically. A GET then DEL from "
         "the client can interleave: your GET sees your token, the lock expires, another "
         "client acquires it, and your DEL removes theirs.\" a takes the lock with a " +
             formatDuration(a.ttlMs) + " TTL and releases it after " + formatDuration(a.work) +
             (a.atomic ? " with the guide's release script (one atomic unit)"
                       : " with GET, then DEL " + formatDuration(a.gap) + " later") +
             "; b tries at " + formatVirtualTime(bAt) + ", c at " + formatVirtualTime(cAt) +
             ". For efficiency a deleted lock costs some work done twice; for correctness it "
             "lets a third client in while the second still works."}};
    addActor(world, std::make_unique<Narrator>(world.node().keyLane, lines), 0);
    addActor(world, std::make_unique<GetThenDelClient>("a", laneA, a, world.rng.token()), 0);
    addActor(world, std::make_unique<GetThenDelClient>("b", laneB, other, world.rng.token()), bAt);
    addActor(world, std::make_unique<GetThenDelClient>("c", laneC, other, world.rng.token()), cAt);
}

}  // namespace

Scenario getThenDelScenario() {
    Scenario s;
    s.name = "get-then-del";
    s.title = "Releasing with GET, then DEL: the check and the delete interleave";
    s.summary =
        "a takes the lock and releases it with GET, then DEL gap_ms later; b and c try to take "
        "the lock meanwhile. atomic=1 releases with the guide's compare-and-delete script "
        "instead, one atomic unit. The verdict after the run says whether a's release removed "
        "a lock it did not own.";
    s.params = {
        {"atomic", "1: release with the guide's Lua script instead of GET then DEL", 0, 0, 1},
        {"ttl_ms", "TTL of every lock (PX)", 200, 1, 60000},
        {"work_ms", "from a taking the lock to its release", 150, 0, 60000},
        {"gap_ms", "between a's GET and its DEL (a GC pause, a slow network)", 100, 0, 60000},
        {"b_at_ms", "when b tries to take the lock", 210, 0, 60000},
        {"c_at_ms", "when c tries to take the lock", 260, 0, 60000},
    };
    s.liveRealMsPerVirtualSecond = 1000;  // short: run it in real time
    s.keys = {kKey};
    s.measures = {measure::foreignDeletions()};
    s.fixedBy = "atomic=1";
    s.build = build;
    return s;
}

}  // namespace lockscope::sim
