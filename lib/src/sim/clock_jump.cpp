#include "clock_jump.h"

#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

void performClockJump(World& world, Recording& recording, ClockJumpFault& jump) {
    jump.announced = true;
    RedisNode& node = world.node(jump.node);
    const std::int64_t before = node.redis.pttl(world.lockKey, world.now);
    node.redis.setClockOffset(node.redis.clockOffset() + jump.jump);
    const std::int64_t after = node.redis.pttl(world.lockKey, world.now);
    std::string text = node.name + "'s clock jumps " + formatDuration(jump.jump) +
                       " forward (an NTP step, a VM resumed after suspension).";
    if (const Holding* h = node.currentHolding(); h && before >= 0)
        text += " " + h->holder + "'s key there had " + formatDuration(before) + " left; by " +
                node.name + "'s clock it now has " +
                (after >= 0 ? formatDuration(after) : std::string("none: it expires now")) + ".";
    recordBeat(recording,
               recordEvent(world, recording, EventKind::ClockJumped, node.keyLane, node.name,
                           "clock +" + formatDuration(jump.jump)),
               text);
}

}  // namespace lockscope::sim
