// expiry-race: the guide's "Verify the behavior" script as a timeline.
#include "lockscope/errors.h"
#include "lockscope/sim/story_measures.h"
#include "scenario_catalog.h"
#include "sim/actors/expiry_race_client.h"
#include "sim/narrator.h"

namespace lockscope::sim {

namespace {

void build(World& world, Recording& recording, const ScenarioParams& params) {
    using Action = ExpiryRaceClient::Action;
    const std::int64_t ttl = params.get("ttl_ms"), sleep = params.get("sleep_ms"),
                       gap = params.get("step_ms");
    const std::string key = "lock:{report:daily}", fence = "fence:{report:daily}";
    LaneId laneA = addLane(recording, LaneKind::Instance, "a", "RedisLock client");
    LaneId laneB = addLane(recording, LaneKind::Instance, "b", "RedisLock client");
    world.lockKey = key;
    world.fenceKey = fence;
    world.node().keyLane = addLane(recording, LaneKind::RedisKey, key, "Redis key");
    std::string tokenA = world.rng.token(), tokenB = world.rng.token();
    world.outcome.scriptOnly = true;
    // One line every step_ms, in the script's order: a.acquire(), b.acquire(), then
    // time.sleep() (the next line, so it starts after b's refusal), then b.acquire() again.
    VirtualMs second = gap, sleepFrom = 2 * gap, wake = sleepFrom + sleep;
    const std::vector<Narrator::Line> lines = {
        {0, "The guide's \"Verify the behavior\" script: two RedisLock clients a and b with a " +
                formatDuration(ttl) + " TTL. a acquires, b is refused, the script sleeps " +
                formatDuration(sleep) +
                " while a believes it still holds the lock, then b acquires and a tries to "
                "extend and release. For efficiency an expired lease costs at worst some work "
                "done twice; for correctness the guide's client refuses to touch a lock it "
                "lost, and the resource must still fence a holder that outlived its TTL."}};
    addActor(world, std::make_unique<Narrator>(world.node().keyLane, lines), 0);
    addActor(world,
             std::make_unique<ExpiryRaceClient>(
                 "a", laneA, key, fence, tokenA, ttl,
                 std::vector<ExpiryRaceClient::Scheduled>{
                     {0, Action::AcquirePrintFence}, {wake + gap, Action::ExtendReleasePrint}}),
             0);
    addActor(world,
             std::make_unique<ExpiryRaceClient>("b", laneB, key, fence, tokenB, ttl,
                                                std::vector<ExpiryRaceClient::Scheduled>{
                                                    {second, Action::AcquirePrint},
                                                    {wake, Action::AcquirePrintFence},
                                                    {wake + 2 * gap, Action::CheckHoldsPrint}}),
             second);
    // time.sleep(0.3): "A pauses past its TTL" — drawn as a pause band on a's lane.
    if (sleep > 0) world.faults.pauses.push_back({"a", sleepFrom, wake, "time.sleep"});
}

}  // namespace

Scenario expiryRaceScenario() {
    Scenario s;
    s.name = "expiry-race";
    s.title = "The guide's \"Verify the behavior\": True 1 / False / True 2 / False False / True";
    s.summary =
        "Two RedisLock clients with a 200 ms TTL. a acquires, b tries, a sleeps (sleep_ms) "
        "while it believes it still holds the lock, then b tries again and a tries to extend "
        "and release. The verdict after the run says whose lock each release removed.";
    s.params = {
        {"ttl_ms", "TTL of both locks", 200, 1, 60000},
        {"sleep_ms", "how long the script sleeps while a holds nothing but thinks it does", 300, 0,
         60000},
        {"step_ms", "time between the script's other lines", 10, 1, 1000},
    };
    s.liveRealMsPerVirtualSecond = 1000;  // the script is short: run it in real time
    s.keys = {"lock:{report:daily}", "fence:{report:daily}"};
    // The guide's client refuses to touch a lock it lost; without the sleep it never loses it.
    s.measures = {measure::foreignDeletions()};
    s.fixedBy = "sleep_ms=0";
    s.build = build;
    return s;
}

}  // namespace lockscope::sim
