#pragma once
// What the two nightly-report scenarios share: their parameters (instances, trigger
// times, the slow night, injected faults) and the lanes and triggers built from them.

#include <vector>

#include "lockscope/sim/scenario.h"

namespace lockscope::sim {

struct ReportNight {
    int instances = 0;
    std::vector<VirtualMs> triggers;  // per instance
    int chunks = 0;
    VirtualMs chunk = 0, slowChunk = 0, dbSlowUntil = 0;
    std::vector<LaneId> instanceLanes;
    LaneId narratorLane = -1;
};

struct FaultDefaults {
    std::int64_t pauseInstance = 0, pauseAt = 0, pauseLength = 0;
};

// When the schedulers fire: A at 0, B at secondAt, each later one stagger after the one
// before (plus jitter).
struct TriggerDefaults {
    VirtualMs secondAt = 36000, stagger = 36000;
};

// instances, second_at_ms, stagger_ms, jitter_ms, chunks, chunk_ms, slow_chunk_ms,
// db_slow_until_ms, pause_instance, pause_at_ms, pause_ms, crash_instance, crash_at_ms.
std::vector<ParamSpec> reportNightParams(FaultDefaults faults, TriggerDefaults triggers = {});

// The broken and the fixed job are each other's reference: one set of measures for both
// (emails, duplicate runs, foreign deletions, corrupted writes, and the fix's safeguards).
std::vector<ComparisonRow> reportJobMeasures();

// Reads the shared parameters, draws the trigger jitter, adds the instance lanes first and
// the key, file and outbox lanes after them, and plans the faults.
ReportNight setUpReportNight(World& world, Recording& recording, const ScenarioParams& params,
                             const std::string& lockKey);

// "0.000s (A), 36.000s (B)": the trigger times for the introduction.
std::string describeTriggers(const ReportNight& night);
// "The database is slow until 45.000s: a chunk takes 5 s then and 750 ms after, so ..." or
// "The database is healthy tonight: ...", from the parameters.
std::string describeNight(const ReportNight& night);
// Describes the planned pause and crash, or "".
std::string describeFaults(const World& world);

}  // namespace lockscope::sim
