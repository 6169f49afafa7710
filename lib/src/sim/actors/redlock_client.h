#pragma once
// A Redlock client (the Redlock spec as the guide states it): record the start, send
// SET key token NX PX ttl to every node at once with a per-node timeout, and hold the lock
// only if a majority answered OK and validity = ttl − elapsed − drift is positive; else
// release on every node. Then work, write the report (fenced or not) and release.
// Nodes the client cannot reach never answer (a partition): they cost the full timeout.

#include <vector>

#include "lockscope/sim/actor.h"
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

// The `fencing` parameter: 0, 1, 2.
enum class RedlockFencing { None = 0, Token = 1, VersionRead = 2 };

struct RedlockClientConfig {
    std::string key;
    std::int64_t ttlMs = 10000;
    VirtualMs nodeTimeout = 50;  // per node: a reply later than this is a failure
    VirtualMs latency = 5;       // round trip to a reachable node
    std::vector<int> unreachable;
    VirtualMs work = 500;      // from holding the lock to writing the report
    VirtualMs writeDelay = 0;  // the network holds the report write this long on its way
    // Redlock hands out no fencing token. Token: a monotonic counter the store hands out
    // (strictly increasing, as a consensus service's would be). VersionRead: the trap of
    // deriving it from the row's version read just before writing, which always passes.
    RedlockFencing fencing = RedlockFencing::None;
};

class RedlockClient final : public ClonableActor<RedlockClient> {
  public:
    RedlockClient(std::string name, LaneId lane, RedlockClientConfig config, std::string token);
    void step(StepContext& context) override;

  private:
    enum class Phase { Acquire, Decide, Send, Write, Release };
    void acquire(StepContext& context);
    void decide(StepContext& context);
    void write(StepContext& context);
    void releaseAll(StepContext& context);
    void takeFence(StepContext& context);
    void readVersionFence(StepContext& context);
    bool reachable(int node) const;

    RedlockClientConfig config_;
    std::string token_;
    Phase phase_ = Phase::Acquire;
    VirtualMs started_ = 0;
    std::vector<std::string> granted_;  // names of the nodes that answered OK
    std::int64_t fence_ = 0;
};

}  // namespace lockscope::sim
