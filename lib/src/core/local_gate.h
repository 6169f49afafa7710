#pragma once
// The local half of RedisLock's standard-lock exclusion: one holder per RedisLock object at a
// time, like a std::timed_mutex that any thread may open (a HeldLock may be released on
// another thread than the one that took it). The server-side half is the lock key itself.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stop_token>

namespace lockscope::detail {

class LocalGate {
  public:
    using Clock = std::chrono::steady_clock;

    // Closes the gate if it is open; false at once when it is closed.
    bool tryClose();
    // Waits until the gate is open and closes it; false when `deadline` passes or `stop` is
    // requested first.
    bool closeBefore(Clock::time_point deadline, std::stop_token stop);
    // Opens the gate (a no-op when open) and wakes the waiters.
    void open();
    bool closed() const;

  private:
    mutable std::mutex mutex_;
    std::condition_variable_any opened_;
    bool closed_ = false;
};

// Opens the gate on scope exit unless the holder keeps it (commit()).
class GateHold {
  public:
    explicit GateHold(LocalGate& gate) : gate_(&gate) {}
    ~GateHold() {
        if (gate_) gate_->open();
    }
    GateHold(const GateHold&) = delete;
    GateHold& operator=(const GateHold&) = delete;
    void commit() { gate_ = nullptr; }

  private:
    LocalGate* gate_;
};

}  // namespace lockscope::detail
