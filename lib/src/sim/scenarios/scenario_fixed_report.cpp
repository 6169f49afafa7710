// fixed-report: the guide's fix on the same slow night, with one instance frozen by a GC
// pause just after its last chunk, before its fenced save.
#include "lockscope/sim/story_measures.h"
#include "report_scenario_setup.h"
#include "scenario_catalog.h"
#include "sim/actors/fenced_report_job.h"
#include "sim/narrator.h"

namespace lockscope::sim {

namespace {

void build(World& world, Recording& recording, const ScenarioParams& params) {
    FencedJobConfig job;
    ReportNight night = setUpReportNight(world, recording, params, job.key);
    world.fenceKey = job.fenceKey;
    world.storeLane = addLane(recording, LaneKind::FencedStore, "reports.db", "fenced store");
    job.ttlMs = params.get("ttl_ms");
    job.saveDelay = params.get("save_delay_ms");
    job.chunks = night.chunks;
    job.chunk = night.chunk;
    job.slowChunk = night.slowChunk;
    job.dbSlowUntil = night.dbSlowUntil;
    std::vector<Narrator::Line> lines = {
        {0, "The guide's fix on " + std::to_string(night.instances) +
                " scheduler instances: a unique token per instance, the acquire script with a "
                "fencing token, a " +
                formatDuration(job.ttlMs) +
                " TTL renewed before each chunk is written (abort when renewal fails), "
                "save_report with the fence, and the email keyed by date. The schedulers fire "
                "at " +
                describeTriggers(night) + ". " + describeNight(night) + describeFaults(world) +
                " For efficiency the lock alone would do; for correctness (one intact "
                "report, one email) the resources check too: the store the fence, the "
                "outbox the date."},
    };
    addActor(world, std::make_unique<Narrator>(night.narratorLane, lines), 0);
    for (int i = 0; i < night.instances; ++i) {
        // Tokens are drawn in instance order after the jitter, so a seed fixes all of them.
        std::string token = world.rng.token();
        addActor(
            world,
            std::make_unique<FencedReportJob>(instanceName(i), night.instanceLanes[i], job, token),
            night.triggers[i]);
    }
}

}  // namespace

Scenario fixedReportScenario() {
    Scenario s;
    s.name = "fixed-report";
    s.title = "The fixed nightly report: token, renewal, fenced save, email keyed by date";
    s.summary =
        "The guide's fix on the same slow night: a renewed lock, a fencing token checked at save "
        "and a date key on the email. One instance is frozen past its TTL right before its "
        "save, so another instance takes over; the verdict after the run says how many reports "
        "and emails came out of it.";
    s.params = reportNightParams({1, 40500, 45000});
    s.params.insert(
        s.params.begin() + 1,
        ParamSpec{"ttl_ms", "TTL of the lock (PX), renewed between chunks", 30000, 1, 86400000});
    s.params.insert(
        s.params.begin() + 2,
        ParamSpec{"save_delay_ms", "from the last chunk to save_report", 1000, 0, 3600000});
    s.keys = {"lock:{report:daily}", "fence:{report:daily}"};
    s.measures = reportJobMeasures();
    s.build = build;
    return s;
}

}  // namespace lockscope::sim
