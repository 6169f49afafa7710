#include "report_scenario_setup.h"

#include "lockscope/errors.h"
#include "lockscope/sim/story_measures.h"

namespace lockscope::sim {

std::vector<ParamSpec> reportNightParams(FaultDefaults f, TriggerDefaults t) {
    constexpr std::int64_t kHour = std::int64_t{3600} * 1000, kDay = 24 * kHour;
    return {
        {"instances", "scheduler instances running the nightly job", 3, 1, 8},
        {"second_at_ms", "when B's scheduler fires (A's fires at 0)", t.secondAt, 0, kHour},
        {"stagger_ms", "each later instance fires stagger_ms after the one before", t.stagger, 0,
         kHour},
        {"jitter_ms", "random extra delay of each trigger, drawn from the seed", 0, 0, 60000},
        {"chunks", "chunks of the report, each written to the output file", 8, 1, 100},
        {"chunk_ms", "time to build one chunk on a normal night", 750, 1, 600000},
        {"slow_chunk_ms", "time to build one chunk while the database is slow", 5000, 1, 600000},
        {"db_slow_until_ms", "the database is slow until this time", 45000, 0, kDay},
        {"pause_instance", "instance to freeze with a GC pause (1 = A, 0 = none)", f.pauseInstance,
         0, 8},
        {"pause_at_ms", "when the pause starts", f.pauseAt, 0, kDay},
        {"pause_ms", "how long the pause lasts", f.pauseLength, 0, kHour},
        {"crash_instance", "instance to crash (1 = A, 0 = none)", 0, 0, 8},
        {"crash_at_ms", "when it crashes", 0, 0, kDay},
    };
}

std::vector<ComparisonRow> reportJobMeasures() {
    return {measure::emailsSent(),
            measure::duplicateRuns(),
            measure::foreignDeletions(),
            measure::corruptedWrites(),
            measure::corruptedReportsEmailed(),
            measure::staleWritesRejected(),
            measure::emailsHeldBack()};
}

ReportNight setUpReportNight(World& world, Recording& recording, const ScenarioParams& params,
                             const std::string& lockKey) {
    ReportNight night;
    night.instances = static_cast<int>(params.get("instances"));
    night.chunks = static_cast<int>(params.get("chunks"));
    night.chunk = params.get("chunk_ms");
    night.slowChunk = params.get("slow_chunk_ms");
    night.dbSlowUntil = params.get("db_slow_until_ms");
    const VirtualMs secondAt = params.get("second_at_ms"), stagger = params.get("stagger_ms");
    auto jitter = static_cast<std::uint64_t>(params.get("jitter_ms"));
    for (int i = 0; i < night.instances; ++i) {
        const VirtualMs planned = i == 0 ? 0 : secondAt + (i - 1) * stagger;
        night.triggers.push_back(planned + static_cast<VirtualMs>(world.rng.below(jitter + 1)));
        night.instanceLanes.push_back(
            addLane(recording, LaneKind::Instance, instanceName(i), "scheduler instance"));
    }
    world.lockKey = lockKey;
    world.node().keyLane = addLane(recording, LaneKind::RedisKey, lockKey, "Redis key");
    world.fileLane = addLane(recording, LaneKind::OutputFile, "report.csv", "output file");
    world.outboxLane = addLane(recording, LaneKind::FinanceOutbox, "finance", "email outbox");
    night.narratorLane = world.node().keyLane;

    auto instanceParam = [&](const char* name) {
        std::int64_t which = params.get(name);
        if (which > night.instances)
            throw InvalidArgumentError(std::string(name) + "=" + std::to_string(which) +
                                       " but there are only " + std::to_string(night.instances) +
                                       " instances");
        return which;
    };
    if (std::int64_t p = instanceParam("pause_instance"); p > 0 && params.get("pause_ms") > 0) {
        VirtualMs from = params.get("pause_at_ms");
        world.faults.pauses.push_back(
            {instanceName(static_cast<int>(p - 1)), from, from + params.get("pause_ms")});
    }
    if (std::int64_t c = instanceParam("crash_instance"); c > 0)
        world.faults.crashes.push_back(
            {instanceName(static_cast<int>(c - 1)), params.get("crash_at_ms")});
    return night;
}

std::string describeTriggers(const ReportNight& night) {
    std::string s;
    for (int i = 0; i < night.instances; ++i)
        s += (i ? ", " : "") + formatVirtualTime(night.triggers[i]) + " (" + instanceName(i) + ")";
    return s;
}

std::string describeNight(const ReportNight& n) {
    const VirtualMs good = n.chunks * n.chunk;
    if (n.dbSlowUntil <= 0 || n.slowChunk <= n.chunk)
        return "The database is healthy tonight: a chunk takes " + formatDuration(n.chunk) +
               ", the job " + formatDuration(good) + ".";
    return "The database is slow until " + formatVirtualTime(n.dbSlowUntil) + ": a chunk takes " +
           formatDuration(n.slowChunk) + " then and " + formatDuration(n.chunk) +
           " after, so the job takes " + formatDuration(good) + " on a good night and up to " +
           formatDuration(n.chunks * n.slowChunk) + " tonight.";
}

std::string describeFaults(const World& world) {
    std::string s;
    for (const auto& p : world.faults.pauses)
        s += " " + p.actor + " will be frozen by a " + p.reason + " from " +
             formatVirtualTime(p.from) + " for " + formatDuration(p.to - p.from) + ".";
    for (const auto& c : world.faults.crashes)
        s += " " + c.actor + " will crash at " + formatVirtualTime(c.at) + ".";
    return s;
}

}  // namespace lockscope::sim
