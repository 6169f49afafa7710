#include "local_gate.h"

namespace lockscope::detail {

bool LocalGate::tryClose() {
    std::lock_guard lock(mutex_);
    if (closed_) return false;
    closed_ = true;
    return true;
}

bool LocalGate::closeBefore(Clock::time_point deadline, std::stop_token stop) {
    std::unique_lock lock(mutex_);
    // Clock::time_point::max() would overflow inside wait_until: wait without a deadline.
    bool open = deadline == Clock::time_point::max()
                    ? opened_.wait(lock, stop, [this] { return !closed_; })
                    : opened_.wait_until(lock, stop, deadline, [this] { return !closed_; });
    if (!open) return false;
    closed_ = true;
    return true;
}

void LocalGate::open() {
    {
        std::lock_guard lock(mutex_);
        closed_ = false;
    }
    opened_.notify_all();  // a waiter whose stop was requested must not swallow the wake
}

bool LocalGate::closed() const {
    std::lock_guard lock(mutex_);
    return closed_;
}

}  // namespace lockscope::detail
