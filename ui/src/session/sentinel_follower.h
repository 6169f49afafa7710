#pragma once
// Behind Sentinel, for one connection's worker: which server is the service's primary now
// (asked at each connect), and a failover, seen either as a different answer than last time or
// announced by the Sentinels (+switch-master) while the old primary still answers. Not
// thread-safe: the worker's thread owns it.

#include <QString>
#include <memory>
#include <optional>
#include <string>

#include "lockscope/endpoint.h"
#include "lockscope/sentinel.h"
#include "lockscope/sentinel_switches.h"

namespace lockscope::ui {

class SentinelFollower {
  public:
    explicit SentinelFollower(SentinelTarget target) : target_(std::move(target)) {}

    struct PrimaryNow {
        Endpoint endpoint;
        QString firstNote;  // the first answer, for the command log (empty after it)
        // The primary changed since the last answer (Endpoint::display() of the one before).
        std::optional<std::string> failedOverFrom;
    };
    // Asks the Sentinels. Throws discoverPrimary's errors: UnknownServiceError and
    // AuthenticationError (not worth retrying), IoError (every Sentinel down).
    PrimaryNow primaryNow();
    // True when the Sentinels announced a new primary since the last call: the connection
    // should move now, even while the old primary (demoted to a replica) still answers reads.
    bool switched() { return switches_ && switches_->switched(); }

    const SentinelTarget& target() const { return target_; }
    // The primary of the last answer (Endpoint::display()); empty before the first.
    const std::string& primary() const { return primary_; }

  private:
    SentinelTarget target_;
    std::unique_ptr<SentinelSwitches> switches_;  // made once a Sentinel has answered
    std::string primary_;
};

}  // namespace lockscope::ui
