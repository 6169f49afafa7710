#include "redlock_setup.h"

#include "sim/narrator.h"

namespace lockscope::sim {

std::vector<ParamSpec> redlockParams(VirtualMs work, VirtualMs client2At) {
    return {
        {"fencing",
         "0: no token; 1: a monotonic token from a counter (the fix); 2: a token derived from "
         "the report row's version read at write time (the trap)",
         0, 0, 2},
        {"ttl_ms", "TTL of the lock on every node (PX)", 10000, 100, 86400000},
        {"node_timeout_ms", "how long a client waits for one node", 50, 1, 60000},
        {"latency_ms", "round trip to a reachable node", 5, 0, 60000},
        {"work_ms", "from holding the lock to writing the report", work, 0, 3600000},
        {"client2_at_ms", "when client2 tries to lock", client2At, 0, 3600000},
    };
}

Scenario redlockScenario(VirtualMs work, VirtualMs client2At) {
    Scenario s;
    s.params = redlockParams(work, client2At);
    s.fixedBy = "fencing=1";
    // A slow network: every round trip past the node timeout (the replies come too late).
    s.serverFaults = {{"latency_ms",
                       {60},
                       "every round trip takes %1 (past the node timeout)",
                       ServerFault::Shown::Duration}};
    return s;
}

RedlockStory setUpRedlock(World& world, Recording& recording, const ScenarioParams& params,
                          int nodes) {
    world.outcome.countsBeliefOverlaps = true;
    RedlockStory story;
    story.client1 = addLane(recording, LaneKind::Instance, "client1", "Redlock client");
    story.client2 = addLane(recording, LaneKind::Instance, "client2", "Redlock client");
    world.lockKey = "lock:{report:daily}";
    world.nodes.resize(static_cast<std::size_t>(nodes));
    for (std::size_t n = 0; n < world.nodes.size(); ++n) {
        RedisNode& node = world.nodes[n];
        node.name = std::string(1, static_cast<char>('A' + n));
        node.keyLane = addLane(recording, LaneKind::RedisKey, node.name + " " + world.lockKey,
                               "independent primary " + node.name);
    }
    world.storeLane = addLane(recording, LaneKind::FencedStore, "reports.db", "report store");
    story.config.key = world.lockKey;
    story.config.ttlMs = params.get("ttl_ms");
    story.config.nodeTimeout = params.get("node_timeout_ms");
    story.config.latency = params.get("latency_ms");
    story.config.work = params.get("work_ms");
    story.config.fencing = static_cast<RedlockFencing>(params.get("fencing"));
    story.client2At = params.get("client2_at_ms");
    return story;
}

void addRedlockActors(World& world, const RedlockStory& story, const std::string& intro,
                      const RedlockClientConfig& one, const RedlockClientConfig& two) {
    std::vector<Narrator::Line> lines = {{0, intro}};
    addActor(world, std::make_unique<Narrator>(world.node(0).keyLane, lines), 0);
    addActor(world,
             std::make_unique<RedlockClient>("client1", story.client1, one, world.rng.token()), 0);
    addActor(world,
             std::make_unique<RedlockClient>("client2", story.client2, two, world.rng.token()),
             story.client2At);
}

std::string nodeNames(int nodes) {
    return std::string("A to ") + static_cast<char>('A' + nodes - 1);
}

std::string describeFencing(RedlockFencing fencing) {
    switch (fencing) {
        case RedlockFencing::Token:
            return " Writes carry a fencing token from a monotonic counter, and the store "
                   "checks it (WHERE fence < ?).";
        case RedlockFencing::VersionRead:
            return " Writes carry a number derived from the report row's version, read just "
                   "before each write (version + 1), checked with WHERE fence < ?: the trap of "
                   "a number that always passes.";
        case RedlockFencing::None:
            break;
    }
    return " The report store checks nothing: the last write wins.";
}

}  // namespace lockscope::sim
