#include "clock_jump.h"

#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

void performClockJump(World& world, Recording& recording, ClockJumpFault& jump) {
    jump.announced = true;
    RedisNode& node = world.node(jump.node);
    const std::int64_t before = node.redis.pttl(world.lockKey, world.now);
    node.redis.setClockOffset(node.redis.clockOffset() + jump.jump);
    const std::int64_t after = node.redis.pttl(world.lockKey, world.now);
    // Narrated by message ids (message.h), so the window can translate the beat.
    std::vector<Message> text = {
        Message{"sim.clock.jumps", {node.name, formatDuration(jump.jump)}}};
    const Holding* h = node.currentHolding(world.lockKey);
    if (h && before >= 0)
        text.push_back(after >= 0 ? Message{"sim.clock.key-shortened",
                                            {h->holder, formatDuration(before), node.name,
                                             formatDuration(after)}}
                                  : Message{"sim.clock.key-expires-now",
                                            {h->holder, formatDuration(before), node.name}});
    recordBeat(recording,
               recordEvent(world, recording, EventKind::ClockJumped, node.keyLane, node.name,
                           "clock +" + formatDuration(jump.jump)),
               text);
    // Asked on the beat before: what a step of the node's clock does to the key there.
    if (h && before >= 0)
        recording.beats.back().predict =
            Prompt{node.name + "'s clock is about to step " + formatDuration(jump.jump) +
                       " forward. " + h->holder + "'s key there has " + formatDuration(before) +
                       " left. What happens to it?",
                   after >= 0 ? "It now expires " + formatDuration(before - after) + " early, at " +
                                    formatVirtualTime(world.now + after) + "."
                              : "It expires at once: its deadline is on " + node.name +
                                    "'s own clock, which is now past it."};
}

}  // namespace lockscope::sim
