// redlock-clock-jump: Kleppmann's second example. client1 locks A, B and C (D and E are out
// of reach); C's clock jumps forward and its key expires; client2 locks C, D and E (A and B
// out of reach). Both now believe they hold the lock: the rules count it, nothing asserts it.
#include "lockscope/sim/story_measures.h"
#include "redlock_setup.h"
#include "scenario_catalog.h"
#include "sim/redlock_rules.h"

namespace lockscope::sim {

namespace {

void build(World& world, Recording& recording, const ScenarioParams& params) {
    RedlockStory story = setUpRedlock(world, recording, params);
    const VirtualMs jumpAt = params.get("jump_at_ms"), jump = params.get("jump_ms");
    if (jump > 0) world.faults.clockJumps.push_back({2, jumpAt, jump});
    RedlockClientConfig one = story.config, two = story.config;
    one.unreachable = {3, 4};  // D and E
    two.unreachable = {0, 1};  // A and B
    const std::int64_t drift = redlockDriftMicros(story.config.ttlMs) / 1000;
    const std::string intro =
        "Kleppmann's clock example. Five independent primaries A to E. A network problem keeps "
        "client1 from D and E, and client2 from A and B. C's clock will jump " +
        formatDuration(jump) + " forward at " + formatVirtualTime(jumpAt) +
        ". Redlock's drift allowance for a " + formatDuration(story.config.ttlMs) + " TTL is " +
        formatDuration(drift) + ": it covers clocks running slightly fast, not a step." +
        " For efficiency one Redis is enough; for correctness no N helps without fencing." +
        describeFencing(story.config.fencing);
    addRedlockActors(world, story, intro, one, two);
}

}  // namespace

Scenario redlockClockJumpScenario() {
    Scenario s = redlockScenario(5000, 2000);
    s.name = "redlock-clock-jump";
    s.title = "Redlock and a clock jump: two clients each hold a majority";
    s.summary =
        "client1 locks A, B and C (D and E unreachable). C's clock jumps forward (jump_ms). "
        "client2 then tries C, D and E (A and B unreachable). Redlock's safety rests on clocks; "
        "the verdict after the run counts the times both believed they held the lock.";
    s.params.push_back({"jump_at_ms", "when C's clock jumps", 1000, 0, 3600000});
    s.params.push_back(
        {"jump_ms", "how far C's clock jumps forward (0 = no jump)", 9500, 0, 86400000});
    s.liveNotes =
        "Live: five private redis-servers A to E, one per node. The partition is on the client "
        "side: a command to a node the client cannot reach is not sent, and its timeout is "
        "waited out. C's clock jump is EMULATED, not real: a process's clock cannot be stepped "
        "from outside, so at the jump every key on C has its TTL shortened by the jump "
        "(PEXPIRE, or DEL when nothing is left), which is what the jumped clock does to its "
        "expiry.";
    // A token cannot save this one (both clients got theirs in order): only whether both
    // held it and the late write. client1 writes before client2 does: a late write, not a
    // stale one (write_order.h).
    s.measures = {measure::overlappingHolds(), measure::lateWrites()};
    // A clock jump on a minority (C, one of five) at any moment, or of another size.
    s.serverFaults.push_back({"jump_at_ms", {}, "C's clock jumps at %1", ServerFault::Shown::Time});
    s.serverFaults.push_back(
        {"jump_ms", {1000, 30000}, "C's clock jumps %1 forward", ServerFault::Shown::Duration});
    s.build = build;
    return s;
}

}  // namespace lockscope::sim
