// setnx-expire-crash: the common mistake "SETNX followed by EXPIRE". A crash between the
// two leaves a lock with no TTL; the inspector flags it and a safe release clears it.
#include "lockscope/errors.h"
#include "lockscope/sim/story_measures.h"
#include "report_scenario_setup.h"
#include "scenario_catalog.h"
#include "sim/actors/inspector_operator.h"
#include "sim/actors/plain_lock_report_job.h"
#include "sim/narrator.h"

namespace lockscope::sim {

namespace {

void build(World& world, Recording& recording, const ScenarioParams& params) {
    ReportNight night = setUpReportNight(world, recording, params, "lock:report");
    PlainJobConfig job;
    job.setnxThenExpire = true;
    job.expireDelay = params.get("expire_delay_ms");
    job.ttlSeconds = params.get("lock_ttl_s");
    job.chunks = night.chunks;
    job.chunk = night.chunk;
    job.slowChunk = night.slowChunk;
    job.dbSlowUntil = night.dbSlowUntil;
    const VirtualMs operatorAt = params.get("operator_at_ms");
    const VirtualMs rerunAfter = params.get("rerun_after_ms");
    LaneId operatorLane = -1;
    if (operatorAt > 0)
        operatorLane = addLane(recording, LaneKind::Operator, "operator", "LockScope inspector");
    std::vector<Narrator::Line> lines = {
        {0, "A common mistake from the guide: SETNX lock:report 1, then EXPIRE lock:report " +
                std::to_string(job.ttlSeconds) + " as a second command. The schedulers fire at " +
                describeTriggers(night) + "." + describeFaults(world) +
                (operatorAt > 0 ? " An operator looks at the inspector at " +
                                      formatVirtualTime(operatorAt) + "."
                                : std::string(" No operator is watching.")) +
                " Whether the lock is for efficiency or for correctness, one that never expires "
                "after its holder died stops every later run: a TTL is part of taking it."},
    };
    addActor(world, std::make_unique<Narrator>(night.narratorLane, lines), 0);
    for (int i = 0; i < night.instances; ++i) {
        std::vector<VirtualMs> triggers{night.triggers[i]};
        addActor(world,
                 std::make_unique<PlainLockReportJob>(instanceName(i), night.instanceLanes[i], job,
                                                      triggers),
                 night.triggers[i]);
    }
    if (operatorAt > 0)
        addActor(world,
                 // "run now", when needed, goes to the second instance (or the only one).
                 std::make_unique<InspectorOperator>("operator", operatorLane, "lock:report", 1000,
                                                     instanceName(std::min(1, night.instances - 1)),
                                                     rerunAfter),
                 operatorAt);
}

}  // namespace

Scenario setnxExpireCrashScenario() {
    Scenario s;
    s.name = "setnx-expire-crash";
    s.title = "SETNX, then a crash before EXPIRE: a lock that never expires";
    s.summary =
        "A takes the lock with SETNX and may crash (crash_at_ms) before its EXPIRE. A lock with "
        "no TTL refuses every later run until an operator finds it in the inspector (PTTL -1) "
        "and releases it safely. The verdict after the run says how the night ended.";
    s.params = reportNightParams({});
    for (auto& p : s.params) {
        if (p.name == "crash_instance") p.defaultValue = 1;
        if (p.name == "crash_at_ms") p.defaultValue = 1;
        if (p.name == "db_slow_until_ms") p.defaultValue = 0;
    }
    s.params.insert(s.params.begin() + 1,
                    ParamSpec{"lock_ttl_s", "the EXPIRE that should follow SETNX", 10, 1, 86400});
    s.params.insert(s.params.begin() + 2,
                    ParamSpec{"expire_delay_ms", "time between SETNX and EXPIRE", 2, 1, 60000});
    s.params.push_back({"operator_at_ms", "when the operator opens the inspector (0: never)", 90000,
                        0, std::int64_t{24} * 3600 * 1000});
    s.params.push_back({"rerun_after_ms", "from the release to \"run now\"", 4000, 0, 3600000});
    s.keys = {"lock:report"};
    // A lock with no TTL: the table counts the runs it turned away and whether the operator
    // freed it; the same night with no crash is the reference.
    s.measures = {measure::emailsSent(), measure::runsRefused(), measure::orphansReleased()};
    s.fixedBy = "crash_instance=0";
    s.build = build;
    return s;
}

}  // namespace lockscope::sim
