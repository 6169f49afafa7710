#include "narrator.h"

namespace lockscope::sim {

Narrator::Narrator(LaneId lane, std::vector<Line> lines)
    : ClonableActor("guide", lane), lines_(std::move(lines)) {}

void Narrator::step(StepContext& context) {
    // Every line due now in one step, so an introduction precedes the first command.
    while (next_ < lines_.size() && lines_[next_].at <= context.now()) {
        const Line& line = lines_[next_++];
        context.note(line.compose ? line.compose(context.world()) : line.text);
    }
    if (next_ < lines_.size())
        context.wakeAfter(lines_[next_].at - context.now());
    else
        context.stop();
}

}  // namespace lockscope::sim
