// broken-report: the guide's worked scenario, broken version. Nothing here says what will
// happen; the instances run the broken code and the rules count the damage.
#include "lockscope/sim/story_measures.h"
#include "report_scenario_setup.h"
#include "scenario_catalog.h"
#include "sim/actors/plain_lock_report_job.h"
#include "sim/narrator.h"

namespace lockscope::sim {

namespace {

void build(World& world, Recording& recording, const ScenarioParams& params) {
    ReportNight night = setUpReportNight(world, recording, params, "lock:report");
    PlainJobConfig job;
    job.ttlSeconds = params.get("lock_ttl_s");
    job.chunks = night.chunks;
    job.chunk = night.chunk;
    job.slowChunk = night.slowChunk;
    job.dbSlowUntil = night.dbSlowUntil;
    std::vector<Narrator::Line> lines = {
        {0, "The guide's broken job on " + std::to_string(night.instances) +
                " scheduler instances: SET lock:report 1 NX EX " + std::to_string(job.ttlSeconds) +
                ", build_and_email_report(), DEL lock:report. The schedulers fire at " +
                describeTriggers(night) + ". " + describeNight(night) + describeFaults(world) +
                " A lock for efficiency may now and then let the job run twice: some work "
                "done again. This job emails finance and writes one shared file, so it needs "
                "a lock for correctness, and this one is not."},
        {0,
         "The guide tells it as: at 10 s the lock expired under the first instance, a second "
         "instance acquired it and started the same job, and at 40 s the first instance's DEL "
         "removed the second one's lock, letting a third start. Here the rules decide, every "
         "beat gives the real time, and each duplicate run says what caused it."},
    };
    addActor(world, std::make_unique<Narrator>(night.narratorLane, lines), 0);
    for (int i = 0; i < night.instances; ++i)
        addActor(world,
                 std::make_unique<PlainLockReportJob>(instanceName(i), night.instanceLanes[i], job,
                                                      std::vector<VirtualMs>{night.triggers[i]}),
                 night.triggers[i]);
}

}  // namespace

Scenario brokenReportScenario() {
    Scenario s;
    s.name = "broken-report";
    s.title = "The broken nightly report: SET NX EX 10, a 40 s job, a plain DEL";
    s.summary =
        "Several scheduler instances run the guide's broken job on a night when the database is "
        "slow: SET NX EX, a long job, then DEL. Watch what the lock's expiry does to a job still "
        "working, what the DEL removes, and how many emails finance gets; the verdict after the "
        "run counts them.";
    // B fires after A's lock expired and while A still works, C just after A's DEL removed
    // B's lock: the guide's chain, on a slow night.
    s.params = reportNightParams({}, {35000, 6000});
    s.params.insert(s.params.begin() + 1,
                    ParamSpec{"lock_ttl_s", "EX of the lock, in seconds", 10, 1, 86400});
    s.keys = {"lock:report"};
    s.measures = reportJobMeasures();
    s.build = build;
    return s;
}

}  // namespace lockscope::sim
