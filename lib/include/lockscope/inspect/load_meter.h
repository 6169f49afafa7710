#pragma once
// What a watcher costs one server right now: commands per second and the share of one core
// of server time, over a sliding window (10 s). Server time is measured, not guessed: the
// busy time of each round trip (from the first command written to the last reply read),
// which bounds the time the server spent on those commands from above.

#include <chrono>
#include <cstdint>
#include <deque>

#include "lockscope/inspect/lock_record.h"

namespace lockscope::inspect {

struct LoadFigures {
    double commandsPerSecond = 0;
    double serverShare = 0;  // of one core, 0..1 (busy time / wall time)
    double budget = 0;       // the share allowed, 0..1
};

class LoadMeter {
  public:
    explicit LoadMeter(std::chrono::milliseconds window = std::chrono::seconds(10));

    // Adds a busy period that ended at `at`, in which `commands` commands were answered.
    void add(SteadyClock::time_point at, std::uint64_t commands, std::chrono::nanoseconds busy);
    // Figures over the window ending at now (over the time measured so far when shorter).
    LoadFigures figures(SteadyClock::time_point now, double budget) const;

  private:
    struct Sample {
        SteadyClock::time_point at;
        std::uint64_t commands;
        std::chrono::nanoseconds busy;
    };
    void forgetBefore(SteadyClock::time_point cutoff);

    std::chrono::milliseconds window_;
    std::deque<Sample> samples_;
    SteadyClock::time_point started_{};
};

}  // namespace lockscope::inspect
