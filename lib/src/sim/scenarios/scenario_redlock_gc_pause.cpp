// redlock-gc-pause: Kleppmann's first example. client1 gets a majority of five, then a GC
// pause outlasts its validity; the keys expire, client2 acquires, and client1 wakes and
// writes as if it still held the lock. Without fencing the store takes the stale write;
// with a token the store checks, it is rejected.
#include "lockscope/sim/story_measures.h"
#include "redlock_setup.h"
#include "scenario_catalog.h"
#include "sim/redlock_rules.h"

namespace lockscope::sim {

namespace {

void build(World& world, Recording& recording, const ScenarioParams& params) {
    const int nodes = static_cast<int>(params.get("nodes"));
    RedlockStory story = setUpRedlock(world, recording, params, nodes);
    const VirtualMs pauseAt = params.get("pause_at_ms"), pause = params.get("pause_ms");
    if (pause > 0) world.faults.pauses.push_back({"client1", pauseAt, pauseAt + pause});
    RedlockClientConfig one = story.config;
    one.writeDelay = params.get("write_delay_ms");
    const std::string intro =
        "Kleppmann's critique of Redlock: a lease cannot guarantee mutual exclusion when a "
        "client can pause past its TTL. " +
        std::to_string(nodes) + " independent primaries " + nodeNames(nodes) +
        ": a lock needs a majority of " +
        std::to_string(redlockMajority(static_cast<std::size_t>(nodes))) +
        " (N/2 + 1), so it survives " +
        std::to_string(nodes - redlockMajority(static_cast<std::size_t>(nodes))) +
        " node(s) down, and every acquire and release costs " + std::to_string(nodes) +
        " round trips. For efficiency (a job that may rarely run twice) one Redis is enough; "
        "for correctness no N helps without fencing. client1 locks at 0.000s with a " +
        formatDuration(story.config.ttlMs) + " TTL" +
        (pause > 0 ? " and is frozen by a GC pause from " + formatVirtualTime(pauseAt) + " for " +
                         formatDuration(pause)
                   : std::string()) +
        (one.writeDelay > 0
             ? "; the network delays client1's report write " + formatDuration(one.writeDelay)
             : std::string()) +
        "; client2 tries at " + formatVirtualTime(story.client2At) + "." +
        describeFencing(story.config.fencing);
    addRedlockActors(world, story, intro, one, story.config);
}

}  // namespace

Scenario redlockGcPauseScenario() {
    Scenario s = redlockScenario(500, 12000);
    s.name = "redlock-gc-pause";
    s.title = "Redlock and a GC pause: a majority of five does not stop a stale write";
    s.summary =
        "client1 gets the lock on a majority of five independent primaries, then a GC pause "
        "(pause_ms) may outlast its validity while client2 acquires and writes; client1 then "
        "wakes and writes too. Redlock has no fencing token: fencing=1 takes one from a "
        "monotonic counter, fencing=2 derives it from the row's version read at write time. The "
        "verdict after the "
        "run says which writes the store took and which it rejected.";
    s.params.push_back({"pause_at_ms", "when client1's GC pause starts", 50, 0, 3600000});
    s.params.push_back(
        {"pause_ms", "how long client1 is frozen (0 = no pause)", 15000, 0, 3600000});
    s.params.push_back({"write_delay_ms",
                        "how long the network delays client1's report write (Kleppmann's "
                        "network delay; try with pause_ms=0)",
                        0, 0, 3600000});
    s.params.push_back(
        {"nodes", "how many independent primaries (Redlock's N, usually 3, 5 or 7)", 5, 3, 7});
    s.liveNotes =
        "Live: one private redis-server per node (five by default), which really expire the "
        "keys. "
        "client1's GC pause needs no server action: its actor does not run while paused, as a "
        "frozen process sends nothing.";
    // Did both hold it, and which writes did the store take (and which did it reject)?
    s.measures = {measure::overlappingHolds(), measure::staleWritesAccepted(),
                  measure::staleWritesRejected(), measure::corruptedWrites()};
    s.serverFaults.push_back({"write_delay_ms",
                              {500, 5000, 15000},
                              "the network delays client1's report write %1",
                              ServerFault::Shown::Duration});
    s.build = build;
    return s;
}

}  // namespace lockscope::sim
