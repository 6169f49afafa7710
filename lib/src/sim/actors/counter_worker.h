#pragma once
// A worker of the atomic-counter story: adds 1 to a counter `adds` times, the way its mode
// says. ReadThenWrite: GET, compute, SET (no lock: updates get lost). LockThenUpdate: the
// guide's lock around the same GET and SET (correct, at four commands an update). Incr: one
// INCR, atomic on the server (the guide: "many lock then update flows are a single INCR").
// With check set, the worker reads the counter at the end and the rules compare it with
// the number of adds made.

#include "lockscope/sim/actor.h"
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

enum class CounterMode { ReadThenWrite = 0, LockThenUpdate = 1, Incr = 2 };

struct CounterConfig {
    std::string key = "views:{home}";
    std::string lockKey = "lock:{views:home}";
    CounterMode mode = CounterMode::ReadThenWrite;
    int adds = 3;
    VirtualMs think = 5;        // between reading the counter and writing it back
    VirtualMs gap = 10;         // between two adds
    VirtualMs retry = 3;        // after a refused lock
    VirtualMs lockTtl = 1000;   // the guide's PX 1000 on the lock key
    VirtualMs checkAt = 0;      // when to read the result; 0: never
    std::int64_t expected = 0;  // adds of all workers together
};

class CounterWorker final : public ClonableActor<CounterWorker> {
  public:
    CounterWorker(std::string name, LaneId lane, CounterConfig config, std::string token);
    void step(StepContext& context) override;

  private:
    enum class Phase { Add, Write, Check };
    void add(StepContext& context);
    void writeBack(StepContext& context);
    void next(StepContext& context);

    CounterConfig config_;
    std::string token_;
    Phase phase_ = Phase::Add;
    int done_ = 0;
    std::int64_t read_ = 0;
    int sent_ = 0;  // commands of the update under way, for the commands-per-update measure
};

}  // namespace lockscope::sim
