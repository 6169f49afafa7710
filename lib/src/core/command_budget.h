#pragma once
// Caps a connection's command and connect timeouts at the time left before a deadline, and
// puts them back on scope exit: a stalled server cannot stretch a timed lock call past its
// deadline (issue 33, item 4).

#include <algorithm>
#include <chrono>

#include "lockscope/connection.h"

namespace lockscope::detail {

class CommandBudget {
  public:
    using Clock = std::chrono::steady_clock;
    // Below this a command could not even cross the loopback: the last attempt at the
    // deadline gets this much.
    static constexpr std::chrono::milliseconds minimum{5};

    CommandBudget(Connection& connection, Clock::time_point deadline)
        : connection_(connection),
          deadline_(deadline),
          command_(connection.commandTimeout()),
          connect_(connection.options().connectTimeout) {
        cap();
    }
    ~CommandBudget() {
        connection_.setCommandTimeout(command_);
        connection_.setConnectTimeout(connect_);
    }
    CommandBudget(const CommandBudget&) = delete;
    CommandBudget& operator=(const CommandBudget&) = delete;

    // Applies the time left now (call again before each further command).
    void cap() {
        if (deadline_ == Clock::time_point::max()) return;
        auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline_ - Clock::now());
        left = std::max(left, minimum);
        connection_.setCommandTimeout(std::min(command_, left));
        connection_.setConnectTimeout(std::min(connect_, left));
    }

  private:
    Connection& connection_;
    Clock::time_point deadline_;
    std::chrono::milliseconds command_, connect_;
};

}  // namespace lockscope::detail
