#pragma once
// The guide's fixed nightly job on one scheduler instance:
//     lock = RedisLock(r, "report:daily", ttl_ms=30_000)
//     if lock.acquire():
//         try:
//             for chunk in build_report_chunks():
//                 if not lock.extend(): raise RuntimeError("lock lost, aborting")
//                 write_chunk(chunk)
//             save_report(db, final_path, lock.fence)   # fenced write
//             send_email_once(report_date)              # idempotent
//         finally:
//             lock.release()
// Every line is its own step, so a pause can land between any two of them.

#include "lockscope/sim/actor.h"
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

struct FencedJobConfig {
    std::string key = "lock:{report:daily}";
    std::string fenceKey = "fence:{report:daily}";
    std::int64_t ttlMs = 30000;
    int chunks = 8;
    VirtualMs chunk = 750;
    VirtualMs slowChunk = 5000;
    VirtualMs dbSlowUntil = 45000;
    VirtualMs saveDelay = 1000;  // closing the file and preparing final_path
};

class FencedReportJob final : public ClonableActor<FencedReportJob> {
  public:
    FencedReportJob(std::string name, LaneId lane, FencedJobConfig config, std::string token);
    void step(StepContext& context) override;

  private:
    enum class Phase { Trigger, Extend, Write, Save, Email, Release };
    void trigger(StepContext& context);
    void extend(StepContext& context);
    void write(StepContext& context);
    void save(StepContext& context);
    VirtualMs chunkDuration(VirtualMs now) const;
    bool lostMyLock(const StepContext& context) const;

    FencedJobConfig config_;
    std::string token_;
    std::int64_t fence_ = 0;
    Phase phase_ = Phase::Trigger;
    int chunk_ = 0;
};

}  // namespace lockscope::sim
