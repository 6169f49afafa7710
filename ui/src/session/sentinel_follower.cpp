#include "session/sentinel_follower.h"

#include <QObject>
#include <chrono>

namespace lockscope::ui {

SentinelFollower::PrimaryNow SentinelFollower::primaryNow() {
    // Short timeouts: a Sentinel that does not answer at once is skipped for the next one.
    const ConnectionOptions quick{.connectTimeout = std::chrono::milliseconds(1000),
                                  .commandTimeout = std::chrono::milliseconds(1000)};
    PrimaryNow now{.endpoint = discoverPrimary(target_, quick)};
    if (!switches_) switches_ = std::make_unique<SentinelSwitches>(target_, quick);
    const std::string name = now.endpoint.display();
    if (primary_.empty())
        now.firstNote =
            QObject::tr("Sentinel: the primary of %1 is %2")
                .arg(QString::fromStdString(target_.service), QString::fromStdString(name));
    else if (name != primary_)
        now.failedOverFrom = primary_;
    primary_ = name;
    return now;
}

}  // namespace lockscope::ui
