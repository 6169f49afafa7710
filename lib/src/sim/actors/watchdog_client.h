#pragma once
// A client whose lock library keeps a watchdog (Redisson's lockWatchdogTimeout): it takes the
// guide's lock with a lease, and while its job runs the watchdog extends the lease every
// renew interval; the job's last act is its report write, then the release. A renewal that
// finds the lock gone cancels the job. One process: a GC pause freezes the job and the
// watchdog alike, so a pause longer than the lease lets the key expire under it. A client
// that is refused tries again every retry interval (0: it gives up).

#include "lockscope/sim/actor.h"
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

struct WatchdogClientConfig {
    std::string key, fenceKey;
    std::int64_t leaseMs = 30000;
    VirtualMs renewEvery = 10000;  // 0: no watchdog, the lease is all it has
    VirtualMs job = 60000;         // from holding the lock to writing the report
    VirtualMs retryEvery = 0;
    bool fenced = false;  // the report write carries the acquire's fencing token
};

class WatchdogClient final : public ClonableActor<WatchdogClient> {
  public:
    WatchdogClient(std::string name, LaneId lane, WatchdogClientConfig config, std::string token);
    void step(StepContext& context) override;

  private:
    void acquire(StepContext& context);
    void renew(StepContext& context);
    void finish(StepContext& context);
    void sleepUntilNextDue(StepContext& context);

    WatchdogClientConfig config_;
    std::string token_;
    bool holding_ = false;
    std::int64_t fence_ = 0;
    VirtualMs jobEnds_ = 0, nextRenewal_ = 0;
};

}  // namespace lockscope::sim
