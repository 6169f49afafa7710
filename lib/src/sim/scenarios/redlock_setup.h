#pragma once
// What the two Redlock stories share: N independent primaries A.. (five unless the story
// lets N be chosen; no replication),
// each with its key lane, the two client lanes, the report store, and the clients'
// common parameters.

#include "lockscope/sim/scenario.h"
#include "sim/actors/redlock_client.h"

namespace lockscope::sim {

struct RedlockStory {
    LaneId client1 = -1, client2 = -1;
    RedlockClientConfig config;  // from the shared parameters; unreachable nodes empty
    VirtualMs client2At = 0;
};

// ttl_ms, node_timeout_ms, latency_ms, work_ms, client2_at_ms, fencing.
std::vector<ParamSpec> redlockParams(VirtualMs work, VirtualMs client2At);
// What both Redlock stories declare alike: those parameters, the multi-server table rows,
// and fencing=1 as the fix the table compares with.
Scenario redlockScenario(VirtualMs work, VirtualMs client2At);
// `nodes` independent primaries named A, B, ... (Redlock's N; the quorum is N/2 + 1).
RedlockStory setUpRedlock(World& world, Recording& recording, const ScenarioParams& params,
                          int nodes = 5);
// "A to E" for five nodes.
std::string nodeNames(int nodes);
// The narrator with the introduction, client1 at 0 with config one, client2 at
// story.client2At with config two.
void addRedlockActors(World& world, const RedlockStory& story, const std::string& intro,
                      const RedlockClientConfig& one, const RedlockClientConfig& two);
// "(Kleppmann's critique) ... fence" sentence for the introduction.
std::string describeFencing(RedlockFencing fencing);

}  // namespace lockscope::sim
