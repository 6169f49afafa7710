#pragma once
// An operator at LockScope's inspector: at a set time reads the lock key (GET, PTTL), and
// if it has no TTL, flags it as an orphan and releases it safely: the guide's release
// script with the value the operator saw, so a lock that changed hands is never deleted.
// Then presses "run now" on a scheduler instance.

#include "lockscope/sim/actor.h"
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

class InspectorOperator final : public ClonableActor<InspectorOperator> {
  public:
    InspectorOperator(std::string name, LaneId lane, std::string key, VirtualMs releaseDelay);
    void step(StepContext& context) override;

  private:
    enum class Phase { Inspect, Release };
    std::string key_;
    VirtualMs releaseDelay_;
    Phase phase_ = Phase::Inspect;
    std::string seen_;
    bool orphan_ = false;
};

}  // namespace lockscope::sim
