#pragma once
// The one reconnect backoff of every watched node (before, the window and `watch` each had
// their own): the first retry 500 ms after a failure, doubling up to 10 s, back to none once
// a read answers.

#include <chrono>

namespace lockscope::inspect {

class ReconnectBackoff {
  public:
    static constexpr std::chrono::milliseconds kFirst{500};
    static constexpr std::chrono::milliseconds kMost{10000};

    // A read failed: how long to wait before the next attempt.
    std::chrono::milliseconds failed();
    // A read answered: the next failure waits kFirst again.
    void succeeded() { wait_ = std::chrono::milliseconds(0); }
    std::chrono::milliseconds current() const { return wait_; }

  private:
    std::chrono::milliseconds wait_{0};
};

}  // namespace lockscope::inspect
