#pragma once
// A client of a primary with asynchronous replicas (the failover story):
//     SET lock <token> NX PX ttl          on whichever node is the primary now
//     [WAIT 1 50]                         optional: give the lock back unless a replica has it
//     ... work ...
//     release (compare-and-delete)
// What it believes it holds is what the rules compare with the other client.

#include "lockscope/sim/actor.h"
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

struct FailoverClientConfig {
    std::string key;
    std::int64_t ttlMs = 30000;
    bool wait = false;  // WAIT numReplicas waitTimeout after acquiring
    int numReplicas = 1;
    VirtualMs waitTimeout = 50;
    VirtualMs work = 5000;
};

class FailoverClient final : public ClonableActor<FailoverClient> {
  public:
    FailoverClient(std::string name, LaneId lane, FailoverClientConfig config, std::string token);
    void step(StepContext& context) override;

  private:
    enum class Phase { Acquire, Waited, Release };
    void acquire(StepContext& context);
    void waited(StepContext& context);
    // Gives the lock back on the primary of now: done with the work, or (WAIT came back
    // short) not relying on a hold a failover may lose.
    void release(StepContext& context, bool waitCameBackShort);

    FailoverClientConfig config_;
    std::string token_;
    Phase phase_ = Phase::Acquire;
    int node_ = 0;  // where it took the lock
    VirtualMs leaseEnds_ = 0;
};

}  // namespace lockscope::sim
