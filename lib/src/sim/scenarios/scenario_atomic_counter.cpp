// atomic-counter: the guide's common mistake "Using locks where atomic commands suffice.
// Many lock then update flows are a single INCR, HINCRBY or Lua script." Two workers add to
// one counter: read-then-write loses updates, a lock around it is correct but costs four
// commands an update, INCR is correct in one.
#include "lockscope/sim/story_measures.h"
#include "scenario_catalog.h"
#include "sim/actors/counter_worker.h"
#include "sim/narrator.h"

namespace lockscope::sim {

namespace {

void build(World& world, Recording& recording, const ScenarioParams& params) {
    world.outcome.scriptOnly = true;
    world.outcome.lostUpdates = 0;
    CounterConfig config;
    config.mode = static_cast<CounterMode>(params.get("mode"));
    config.adds = static_cast<int>(params.get("adds"));
    config.think = params.get("think_ms");
    const int workers = static_cast<int>(params.get("workers"));
    config.expected = static_cast<std::int64_t>(workers) * config.adds;
    world.lockKey = config.lockKey;
    std::vector<LaneId> lanes;
    lanes.reserve(static_cast<std::size_t>(workers));
    for (int i = 0; i < workers; ++i)
        lanes.push_back(addLane(recording, LaneKind::Instance, "w" + std::to_string(i + 1),
                                "adds to " + config.key));
    world.node().keyLane = addLane(recording, LaneKind::RedisKey, config.lockKey, "Redis key");
    static const char* const how[] = {"GET, compute, SET: no lock", "the lock around GET and SET",
                                      "INCR: one atomic command"};
    const VirtualMs last =
        VirtualMs{workers - 1} * 2 + config.adds * (config.gap + config.think) * workers;
    config.checkAt = last + 100;
    std::vector<Narrator::Line> lines = {
        {0, "The guide's common mistake \"Using locks where atomic commands suffice\": " +
                std::to_string(workers) + " workers each add 1 to " + config.key + " " +
                std::to_string(config.adds) + " times, with " + how[static_cast<int>(config.mode)] +
                ". The same holds in a database: UPDATE counters SET n = n + 1 is atomic, and "
                "where a read must come first, SELECT ... FOR UPDATE locks the row inside the "
                "transaction that writes it, with no lease to expire. A lost update is a wrong "
                "number: this is correctness, which a lease-based lock for efficiency cannot "
                "promise and an atomic command can."}};
    addActor(world, std::make_unique<Narrator>(world.node().keyLane, lines), 0);
    for (int i = 0; i < workers; ++i) {
        CounterConfig mine = config;
        if (i > 0) mine.checkAt = 0;  // w1 reads the result
        addActor(world,
                 std::make_unique<CounterWorker>("w" + std::to_string(i + 1), lanes[i], mine,
                                                 world.rng.token()),
                 VirtualMs{i} * 2);
    }
}

}  // namespace

Scenario atomicCounterScenario() {
    Scenario s;
    s.name = "atomic-counter";
    s.title = "A lock where one INCR suffices: lost updates, a lock, and the atomic command";
    s.summary =
        "Two workers add to one counter. mode=0 reads, computes and writes back with no lock; "
        "mode=1 takes the guide's lock (PX 1000) around the same read and write, at four "
        "commands an update; mode=2 uses INCR, one command and no lock. Try a think_ms longer "
        "than the lock's TTL. The verdict after the run counts the updates that were lost.";
    s.params = {
        {"mode", "0: GET then SET; 1: a lock around GET and SET; 2: INCR", 0, 0, 2},
        {"workers", "workers adding to the counter", 2, 1, 8},
        {"adds", "how many times each worker adds 1", 3, 1, 100},
        {"think_ms", "between a worker's GET and its SET", 5, 0, 10000},
    };
    s.liveRealMsPerVirtualSecond = 1000;
    s.keys = {"views:{home}", "lock:{views:home}"};
    // Correctness and its price: mode=1 and mode=2 both lose nothing within the TTL, at four
    // commands an update against one.
    s.measures = {measure::lostUpdates(), measure::commandsPerUpdate()};
    s.fixedBy = "mode=2";
    s.build = build;
    return s;
}

}  // namespace lockscope::sim
