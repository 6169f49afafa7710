#pragma once
// The story's voice: beats at set times that introduce the scenario or explain where the
// rules and the guide's narrative part ways. Sends no commands.

#include <functional>
#include <vector>

#include "lockscope/sim/actor.h"
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

class Narrator final : public ClonableActor<Narrator> {
  public:
    struct Line {
        VirtualMs at = 0;
        std::string text;
        // When set, the line is written at its time from what the run did so far (a
        // conclusion must name the cause the rules found, not a fixed one).
        std::function<std::string(const World&)> compose = {};
    };
    Narrator(LaneId lane, std::vector<Line> lines);
    void step(StepContext& context) override;

  private:
    std::vector<Line> lines_;
    std::size_t next_ = 0;
};

}  // namespace lockscope::sim
