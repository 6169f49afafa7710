#pragma once
// An operator at LockScope's inspector: at a set time reads the lock key (GET, PTTL) and the
// job's own state (the schedulers' status: is any instance running the job, did it run
// tonight). A key with no TTL whose job no instance is running is an orphan: the operator
// releases it. The value is the fixed "1" every instance writes, so comparing it proves
// nothing about ownership; the decision rests on what the operator checked. Then, only if
// the report has not run tonight, presses "run now" on a scheduler instance.

#include "lockscope/sim/actor.h"
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

class InspectorOperator final : public ClonableActor<InspectorOperator> {
  public:
    InspectorOperator(std::string name, LaneId lane, std::string key, VirtualMs releaseDelay,
                      std::string rerunOn, VirtualMs rerunAfter);
    void step(StepContext& context) override;

  private:
    enum class Phase { Inspect, Release };
    void inspect(StepContext& context);
    void release(StepContext& context);
    // "run now" on rerunOn_ unless the job ran or runs tonight; says which.
    void runNowIfNeeded(StepContext& context);

    std::string key_;
    VirtualMs releaseDelay_;
    std::string rerunOn_;
    VirtualMs rerunAfter_;
    Phase phase_ = Phase::Inspect;
    std::string seen_;
    bool orphan_ = false;
};

}  // namespace lockscope::sim
