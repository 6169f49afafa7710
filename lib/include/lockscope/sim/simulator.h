#pragma once
// The discrete-event loop: picks what is due next (a fault boundary, a key expiry, an
// actor's wake) in a fixed order, runs it at its virtual time and records it. The loop is
// deterministic: same World in, same Recording out. In live mode the actors' commands go
// to a real server and a real fenced store; the World's model then runs alongside as a
// shadow, and any reply where the two disagree is reported as a divergence.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lockscope/sim/fenced_resource.h"
#include "lockscope/sim/key_value_backend.h"
#include "lockscope/sim/timeline.h"
#include "lockscope/sim/world.h"

namespace lockscope::sim {

// Live mode's real counterparts of the World's server-side events, called right after the
// model ran them: a failover, a clock jump, and the end of every step (the replication
// gates follow what the model has in flight).
class LiveServerEvents {
  public:
    virtual ~LiveServerEvents() = default;
    virtual void failedOver(const World& world, int oldPrimary) = 0;
    virtual void clockJumped(const World& world, const ClockJumpFault& jump) = 0;
    virtual void stepDone(const World& world) = 0;
};

struct LiveBackends {
    // One per World node; empty: the World's models answer.
    std::vector<KeyValueBackend*> redis;
    FencedResource* store = nullptr;  // null: the World's model store answers
    // Called with the virtual time of each step before it runs (live pacing).
    std::function<void(VirtualMs)> beforeStep;
    int realMsPerVirtualSecond = 0;                   // the pacing's scale (live only)
    std::vector<std::string>* divergences = nullptr;  // model vs real disagreements
    LiveServerEvents* servers = nullptr;  // null: the servers' faults are the model's alone
};

class Simulator {
  public:
    // Nothing is simulated past this time, whatever the parameters say.
    static constexpr VirtualMs kHorizon = 24 * kSecond * 3600;

    // When the next due thing would run, if anything is left.
    static std::optional<VirtualMs> nextTime(const World& world);
    // Runs the next due thing. Returns false when nothing is left to run.
    static bool advance(World& world, Recording& recording, const LiveBackends& live = {});
    // Runs until nothing is left, then closes the intervals still open.
    static void runToEnd(World& world, Recording& recording, const LiveBackends& live = {});
    // Closes the open intervals at the end of the story (marked ongoing) and fills in the
    // outcome fields known only at the end.
    static void finish(World& world, Recording& recording);
};

}  // namespace lockscope::sim
