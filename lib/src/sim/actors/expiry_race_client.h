#pragma once
// One client of the guide's "Verify the behavior" script (a or b): a RedisLock with a
// 200 ms TTL, doing its part of the script at fixed times and printing what Python would.
//     print(a.acquire(), a.fence)    # True 1
//     print(b.acquire())             # False
//     time.sleep(0.3)
//     print(b.acquire(), b.fence)    # True 2
//     print(a.extend(), a.release()) # False False
//     print(r.get(b.key) == b.token) # True

#include <vector>

#include "lockscope/sim/actor.h"
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

class ExpiryRaceClient final : public ClonableActor<ExpiryRaceClient> {
  public:
    enum class Action {
        AcquirePrintFence,   // print(x.acquire(), x.fence)
        AcquirePrint,        // print(x.acquire())
        ExtendReleasePrint,  // print(x.extend(), x.release())
        CheckHoldsPrint,     // print(r.get(x.key) == x.token)
    };
    struct Scheduled {
        VirtualMs at = 0;
        Action action = Action::AcquirePrint;
    };

    ExpiryRaceClient(std::string name, LaneId lane, std::string key, std::string fenceKey,
                     std::string token, std::int64_t ttlMs, std::vector<Scheduled> plan);
    void step(StepContext& context) override;

  private:
    std::int64_t acquire(StepContext& context);
    static std::string pyBool(bool b) { return b ? "True" : "False"; }

    std::string key_, fenceKey_, token_;
    std::int64_t ttlMs_;
    std::vector<Scheduled> plan_;
    std::size_t next_ = 0;
    std::int64_t fence_ = 0;  // Python's None prints as "None"; 0 here means none yet
};

}  // namespace lockscope::sim
