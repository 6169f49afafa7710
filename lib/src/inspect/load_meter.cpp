#include "lockscope/inspect/load_meter.h"

#include <algorithm>

namespace lockscope::inspect {

LoadMeter::LoadMeter(std::chrono::milliseconds window) : window_(window) {}

void LoadMeter::add(SteadyClock::time_point at, std::uint64_t commands,
                    std::chrono::nanoseconds busy) {
    if (started_ == SteadyClock::time_point{}) started_ = at - busy;
    // Samples closer together than 100 ms share one entry: the deque stays small.
    if (!samples_.empty() && at - samples_.back().at < std::chrono::milliseconds(100)) {
        samples_.back().commands += commands;
        samples_.back().busy += busy;
    } else {
        samples_.push_back({at, commands, busy});
    }
    forgetBefore(at - window_);
}

void LoadMeter::forgetBefore(SteadyClock::time_point cutoff) {
    while (!samples_.empty() && samples_.front().at < cutoff) samples_.pop_front();
}

LoadFigures LoadMeter::figures(SteadyClock::time_point now, double budget) const {
    LoadFigures f;
    f.budget = budget;
    if (started_ == SteadyClock::time_point{}) return f;
    const auto from = std::max(started_, now - window_);
    const double seconds = std::chrono::duration<double>(now - from).count();
    if (seconds <= 0) return f;
    std::uint64_t commands = 0;
    std::chrono::nanoseconds busy{0};
    for (const auto& s : samples_)
        if (s.at >= from) commands += s.commands, busy += s.busy;
    f.commandsPerSecond = double(commands) / seconds;
    f.serverShare = std::min(1.0, std::chrono::duration<double>(busy).count() / seconds);
    return f;
}

}  // namespace lockscope::inspect
