#include "lockscope/sim/scenario.h"

#include <algorithm>

#include "lockscope/errors.h"
#include "sim/scenarios/scenario_catalog.h"

namespace lockscope::sim {

const std::vector<Scenario>& scenarios() {
    static const std::vector<Scenario> all = {
        brokenReportScenario(),     fixedReportScenario(),      expiryRaceScenario(),
        getThenDelScenario(),       setnxExpireCrashScenario(), atomicCounterScenario(),
        failoverScenario(),         seatHoldScenario(),         redlockGcPauseScenario(),
        redlockClockJumpScenario(), watchdogScenario()};
    return all;
}

const std::vector<ComparisonRow>& comparisonRowsFor(const Scenario& scenario) {
    return scenario.measures;
}

const Scenario* findScenario(std::string_view name) {
    for (const auto& s : scenarios())
        if (s.name == name) return &s;
    return nullptr;
}

const Scenario& scenarioNamed(std::string_view name) {
    if (const Scenario* s = findScenario(name)) return *s;
    std::string known;
    for (const auto& s : scenarios()) known += (known.empty() ? "" : ", ") + s.name;
    throw InvalidArgumentError("unknown scenario \"" + std::string(name) + "\" (known: " + known +
                               ")");
}

void buildScenario(const Scenario& scenario, const ScenarioParams& params, std::uint64_t seed,
                   World& world, Recording& recording) {
    world = World{};
    world.rng = SeededRng(seed);
    recording = Recording{};
    scenario.build(world, recording, params);
    // Every key lane draws the lock key; an ownership interval of another key (a seat's hold)
    // is shown on its holder's lane only.
    for (Lane& lane : recording.lanes)
        if (lane.kind == LaneKind::RedisKey) lane.key = world.lockKey;
}

LaneId addLane(Recording& recording, LaneKind kind, std::string name, std::string subtitle) {
    auto id = static_cast<LaneId>(recording.lanes.size());
    // Key lanes are added in node order (node 0's first), so the count so far is the node.
    int node = -1;
    if (kind == LaneKind::RedisKey)
        node = static_cast<int>(
            std::count_if(recording.lanes.begin(), recording.lanes.end(),
                          [](const Lane& l) { return l.kind == LaneKind::RedisKey; }));
    recording.lanes.push_back({id, kind, std::move(name), std::move(subtitle), node});
    return id;
}

void addActor(World& world, std::unique_ptr<Actor> actor, VirtualMs firstWake) {
    actor->wake = firstWake;
    actor->wakeSeq = ++world.seq;
    world.actors.emplace_back(std::move(actor));
}

std::string instanceName(int index) {
    return {static_cast<char>('A' + index)};
}

}  // namespace lockscope::sim
