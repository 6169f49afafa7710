#pragma once
// Explore every interleaving a small fault space allows: for a story and its parameters,
// every schedule of one or two faults from a bounded menu (which instance pauses or crashes,
// at which of the story's moments, for how long; and the story's own server and network
// faults, Scenario::serverFaults: a failover or a clock jump at another moment, another
// replication lag, a network delay) is simulated by the simulator's own rules,
// and each run is checked for three properties: mutual exclusion (two instances believed
// they held the lock at once), stale writes accepted (the protected resource took a write
// that overwrote a newer holder's: a lower fence, an unfenced save over a later holder's, a
// chunk into the shared file another run had touched), duplicate side effects
// (a second email, a seat sold twice), and a lock left stuck (a key with no TTL whose holder
// is dead: nothing will ever release it, every later run is refused). The shortest
// counterexample of each property comes
// back as a scenario file, so it opens as a story.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lockscope/sim/scenario_file.h"

namespace lockscope::sim {

enum class Property { MutualExclusion, StaleWriteAccepted, DuplicateSideEffect, StuckLock };
inline constexpr Property kProperties[] = {Property::MutualExclusion, Property::StaleWriteAccepted,
                                           Property::DuplicateSideEffect, Property::StuckLock};
const char* toString(Property property);  // "mutual exclusion", ...

struct PropertyResult {
    Property property = Property::MutualExclusion;
    int breaks = 0;                        // schedules that break it
    std::optional<ScenarioFile> shortest;  // fewest faults, then fewest beats
    std::string shortestText;              // "A paused 5 s at 12.000s"
};

struct ExploreResult {
    std::string story;
    int schedules = 0;     // run, the story as written (no added fault) included
    int menu = 0;          // single faults on the menu
    int serverFaults = 0;  // of which faults of the servers or the network
    bool budgetReached = false;
    std::vector<PropertyResult> properties;  // in kProperties order
};

// The menu of one fault: the story's server faults at their values (or moments), then every
// instance × up to 10 moments of the story × (crash, or a pause of 500 ms, 5 s, 15 s, 40 s).
// Schedules: none, each single fault, then pairs (not two on one instance, not one
// parameter twice), until `budget` schedules have run. Throws InvalidArgumentError for an unknown
// story or a budget outside 1 .. 100000.
ExploreResult explore(const ScenarioFile& base, int budget = 500);

// "broken-report: 412 schedules, 96 break mutual exclusion, 203 accept a stale write, 0 have
// a duplicate side effect; shortest: ..." plus one line per property's counterexample.
std::string formatExplore(const ExploreResult& result);

}  // namespace lockscope::sim
