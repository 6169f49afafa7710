#pragma once
// Ctrl+C as a stop token: the first SIGINT asks the running scan to stop (it drains what is
// in flight and the command prints what it has, marked partial); a second one ends the
// process as usual. The signal handler only sets a flag (all a handler may safely do); a
// small thread turns the flag into a stop request within ~20 ms.

#include <atomic>
#include <stop_token>
#include <thread>

namespace lockscope::cli {

class InterruptStop {
  public:
    InterruptStop();
    ~InterruptStop();
    InterruptStop(const InterruptStop&) = delete;
    InterruptStop& operator=(const InterruptStop&) = delete;

    std::stop_token token() const { return source_.get_token(); }
    bool interrupted() const { return source_.stop_requested(); }

    // The exit code of a command interrupted by SIGINT, as shells expect (128 + 2).
    static constexpr int kExitCode = 130;

  private:
    std::stop_source source_;
    std::jthread poller_;
};

}  // namespace lockscope::cli
