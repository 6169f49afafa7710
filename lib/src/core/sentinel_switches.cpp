#include "lockscope/sentinel_switches.h"

#include "lockscope/errors.h"

namespace lockscope {

SentinelSwitches::SentinelSwitches(SentinelTarget target, ConnectionOptions options)
    : target_(std::move(target)), options_(std::move(options)) {
    subscribe();
}

void SentinelSwitches::subscribe() {
    nextTry_ = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    for (const auto& address : target_.sentinels) {
        try {
            auto c = std::make_unique<Connection>(openSentinel(target_, address, options_));
            Reply r = c->command({"SUBSCRIBE", "+switch-master"});
            if (r.isError()) continue;
            subscriber_ = std::move(c);
            return;
        } catch (const Error&) {
            // The next Sentinel; all down: tried again in a second.
        }
    }
}

bool SentinelSwitches::switched(std::chrono::milliseconds wait) {
    if (!subscriber_) {
        if (std::chrono::steady_clock::now() < nextTry_) return false;
        subscribe();
        // A failover may have happened while no Sentinel was heard: the caller asks again.
        return subscriber_ != nullptr;
    }
    bool heard = false;
    try {
        if (!subscriber_->waitForReply(wait)) return false;
        // Everything that has arrived, bounded so a flood cannot hold the caller.
        for (int n = 0; n < 1000; ++n) {
            Reply m = subscriber_->receive();
            // "<service> <old ip> <old port> <new ip> <new port>"
            if (m.size() == 3 && m[0].text() == "message" &&
                m[2].text().starts_with(target_.service + " "))
                heard = true;
            if (!subscriber_->waitForReply(std::chrono::milliseconds(0))) break;
        }
    } catch (const Error&) {
        subscriber_.reset();  // subscribed again on a later call
        nextTry_ = std::chrono::steady_clock::now() + std::chrono::seconds(1);
        return true;  // what happened meanwhile is unknown: ask the Sentinels
    }
    return heard;
}

}  // namespace lockscope
