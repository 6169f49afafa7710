#pragma once
// Small helpers for the simulator tests: find beats by what they show.

#include <functional>
#include <string>

#include "lockscope/sim/live_replay.h"
#include "lockscope/sim/replay.h"
#include "lockscope/sim/timeline.h"

namespace lockscope::sim::testing {

// A scenario simulated with its defaults changed by "name=value" assignments.
inline RunResult simulate(const std::string& name, const std::vector<std::string>& sets = {},
                          std::uint64_t seed = 1) {
    const Scenario& scenario = scenarioNamed(name);
    ScenarioParams params = scenario.defaults();
    for (const auto& s : sets) params.assign(s);
    return runSimulated(scenario, params, seed);
}

// Index of the first beat matching pred at or after from, -1 if none.
inline int findBeat(const Recording& r, const std::function<bool(const Beat&)>& pred,
                    int from = 0) {
    for (int i = from; i < static_cast<int>(r.beats.size()); ++i)
        if (pred(r.beats[i])) return i;
    return -1;
}

inline bool sends(const Beat& b, const std::string& actor, const std::string& commandPrefix) {
    return b.actor == actor && b.command.starts_with(commandPrefix);
}

inline int countEvents(const Recording& r, EventKind kind) {
    int n = 0;
    for (const auto& e : r.events) n += e.kind == kind;
    return n;
}

}  // namespace lockscope::sim::testing
