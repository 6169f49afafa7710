#pragma once
// A client of the get-then-del story. It takes the lock with a unique token, works, then
// releases it either the broken way, from the client in two commands,
//     if r.get(key) == token:      # GET: still mine
//         ... (a GC pause, a slow network: gap ms) ...
//         r.delete(key)            # DEL: whatever is there now
// or with the guide's release script, which compares and deletes as one unit. A client with
// no work only tries to take the lock and holds it for `work` (b and c of the story).

#include "lockscope/sim/actor.h"
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

struct GetThenDelConfig {
    std::string key;
    std::int64_t ttlMs = 200;
    VirtualMs work = 150;  // from taking the lock to releasing it
    VirtualMs gap = 100;   // between the GET and the DEL (non-atomic release only)
    bool atomic = false;   // release with the compare-and-delete script
    bool releases = true;  // false: takes the lock and keeps working (b, c)
};

class GetThenDelClient final : public ClonableActor<GetThenDelClient> {
  public:
    GetThenDelClient(std::string name, LaneId lane, GetThenDelConfig config, std::string token);
    void step(StepContext& context) override;

  private:
    enum class Phase { Acquire, Check, Delete, Done };
    void acquire(StepContext& context);
    void check(StepContext& context);
    void remove(StepContext& context);

    GetThenDelConfig config_;
    std::string token_;
    Phase phase_ = Phase::Acquire;
};

}  // namespace lockscope::sim
