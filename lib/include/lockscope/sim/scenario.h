#pragma once
// The replayable stories: each names its parameters and builds the initial World (actors,
// faults, lanes) from them. Outcomes are not part of a scenario; the rules compute them.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/sim/outcome.h"
#include "lockscope/sim/scenario_params.h"
#include "lockscope/sim/timeline.h"
#include "lockscope/sim/world.h"

namespace lockscope::sim {

// A fault of the servers or the network that --explore may add to a story (replication lag,
// a failover or a clock jump at any point, a network delay): one of the story's own
// parameters set to another value, so a counterexample replays as that story.
struct ServerFault {
    enum class Shown { Time, Duration, Number };
    std::string param;                 // "failover_at_ms"
    std::vector<std::int64_t> values;  // the values tried; empty: the story's moments
    std::string text;                  // "r1 fails over at %1"
    Shown shown = Shown::Time;         // how %1 is written
};

struct Scenario {
    std::string name;     // "broken-report"
    std::string title;    // one line
    std::string summary;  // a paragraph for --list and the panel
    std::vector<ParamSpec> params;
    // Live mode: how many real milliseconds one virtual second takes by default.
    int liveRealMsPerVirtualSecond = 50;
    // Keys a live run needs absent at the start and removes at the end.
    std::vector<std::string> keys;
    // Why `replay --live` cannot run this story (several servers, replication, failover),
    // or empty when it can. runLive refuses with this text rather than pretend.
    std::string liveUnavailable;
    // How a live run does the story's faults for real, and which it can only emulate (said
    // plainly, so no one takes an emulation for the real thing). Empty: nothing to say.
    std::string liveNotes;
    // The measures its comparison table shows: only what this story's rules can count
    // (story_measures.h), so no row reads 0 because the story has nothing to say there.
    std::vector<ComparisonRow> measures;
    // The parameter assignment the table compares the story with: its fix ("fencing=1") or
    // the same story without its fault ("sleep_ms=0"). Empty: the guide's report jobs, each
    // the other's reference.
    std::string fixedBy;
    // The server and network faults --explore adds besides pausing and crashing clients.
    std::vector<ServerFault> serverFaults;
    std::function<void(World&, Recording&, const ScenarioParams&)> build;

    ScenarioParams defaults() const { return ScenarioParams(params); }
};

const std::vector<Scenario>& scenarios();
// The scenario's comparison rows: its measures.
const std::vector<ComparisonRow>& comparisonRowsFor(const Scenario& scenario);
const Scenario* findScenario(std::string_view name);
// Throws InvalidArgumentError naming the known scenarios.
const Scenario& scenarioNamed(std::string_view name);

// The World at virtual time 0 and the Recording with its lanes, ready to simulate.
void buildScenario(const Scenario& scenario, const ScenarioParams& params, std::uint64_t seed,
                   World& world, Recording& recording);

// Helpers for scenario builders.
// A RedisKey lane is node k's when it is the k-th key lane added (add them in node order).
LaneId addLane(Recording& recording, LaneKind kind, std::string name, std::string subtitle);
void addActor(World& world, std::unique_ptr<Actor> actor, VirtualMs firstWake);
std::string instanceName(int index);  // 0 → "A", 1 → "B"...

}  // namespace lockscope::sim
