#pragma once
// When a command must be done by, and whether the caller asked to stop. A deadline is set
// once per command and never moved by progress, so a peer that drips one byte at a time
// cannot keep a command running; waits are cut into slices so a stop request is seen
// within kCancelSlice.

#include <algorithm>
#include <chrono>
#include <stop_token>

namespace lockscope::transport {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::milliseconds kCancelSlice{50};

struct Deadline {
    Clock::time_point at;
    std::stop_token stop;
    std::chrono::milliseconds budget{0};  // what the command was given, for messages

    static Deadline in(std::chrono::milliseconds budget, std::stop_token stop = {}) {
        return Deadline{Clock::now() + budget, std::move(stop), budget};
    }
    bool passed() const { return Clock::now() >= at; }
    bool cancelled() const { return stop.stop_requested(); }

    // Milliseconds for one poll(): up to the deadline (rounded up, so the wake-up is never
    // early), and no longer than a slice when someone may ask to stop.
    int pollMillis() const {
        auto left = std::chrono::ceil<std::chrono::milliseconds>(at - Clock::now());
        left = std::max(left, std::chrono::milliseconds{0});
        if (stop.stop_possible()) left = std::min(left, kCancelSlice);
        return static_cast<int>(std::min<std::int64_t>(left.count(), 3'600'000));
    }
};

}  // namespace lockscope::transport
