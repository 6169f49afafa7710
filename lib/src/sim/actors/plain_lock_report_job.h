#pragma once
// The guide's broken nightly job on one scheduler instance:
//     if r.set("lock:report", "1", nx=True, ex=10):   # or SETNX, then EXPIRE
//         build_and_email_report()
//         r.delete("lock:report")
// Each chunk of the report takes slowChunk while the database is slow, chunk otherwise.
// The instance fires at each of its trigger times and skips the job when refused.

#include <vector>

#include "lockscope/sim/actor.h"
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

struct PlainJobConfig {
    std::string key = "lock:report";
    bool setnxThenExpire = false;  // the "common mistake": two commands instead of one
    VirtualMs expireDelay = 2;     // between SETNX and EXPIRE
    std::int64_t ttlSeconds = 10;
    int chunks = 8;
    VirtualMs chunk = 750;
    VirtualMs slowChunk = 5000;
    VirtualMs dbSlowUntil = 45000;
};

class PlainLockReportJob final : public ClonableActor<PlainLockReportJob> {
  public:
    PlainLockReportJob(std::string name, LaneId lane, PlainJobConfig config,
                       std::vector<VirtualMs> triggers);
    void step(StepContext& context) override;
    // An operator's "run now": one more trigger at `at`, waking the instance if it is idle.
    void runNow(World& world, VirtualMs at);

  private:
    enum class Phase { Trigger, Expire, Chunk, Release };
    void trigger(StepContext& context);
    void startWork(StepContext& context);
    void chunkDone(StepContext& context);
    void release(StepContext& context);
    void scheduleNextTrigger(StepContext& context);
    VirtualMs chunkDuration(VirtualMs now) const;

    PlainJobConfig config_;
    std::vector<VirtualMs> triggers_;  // in time order, "run now" presses included
    std::vector<VirtualMs> runNow_;    // which of them an operator pressed
    std::size_t triggerIndex_ = 0;
    Phase phase_ = Phase::Trigger;
    int chunk_ = 0;
};

// "A is still running; its lock expired at 10.000s." for every other live run, or "".
std::string otherRunsFacts(const World& world, const std::string& self);
// Those facts as one English literal among a beat's messages (without the leading space).
Message factsMessage(const std::string& facts);

}  // namespace lockscope::sim
