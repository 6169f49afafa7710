#pragma once
// Hears the Sentinels announce a failover: SUBSCRIBE +switch-master on the first Sentinel that
// answers, so a watch behind Sentinel learns of a new primary the moment it is chosen rather
// than at its next periodic question. Lost subscriptions are made again, at most once a
// second. Not thread-safe: one thread owns it.

#include <chrono>
#include <memory>
#include <optional>

#include "lockscope/connection.h"
#include "lockscope/sentinel.h"

namespace lockscope {

class SentinelSwitches {
  public:
    explicit SentinelSwitches(SentinelTarget target, ConnectionOptions options = {});

    // True when a +switch-master for the service arrived since the last call (waits up to
    // `wait` for one). Never throws: a Sentinel that fails is subscribed to again later.
    bool switched(std::chrono::milliseconds wait = std::chrono::milliseconds(0));
    // Whether a Sentinel is listening for us now.
    bool subscribed() const { return subscriber_ != nullptr; }

  private:
    void subscribe();

    SentinelTarget target_;
    ConnectionOptions options_;
    std::unique_ptr<Connection> subscriber_;
    std::chrono::steady_clock::time_point nextTry_{};
};

}  // namespace lockscope
