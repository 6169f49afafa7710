#include "lockscope/inspect/cluster/topology_refresh_policy.h"

#include <algorithm>

namespace lockscope::inspect {

void TopologyRefreshPolicy::noteAsked(Clock::time_point now) {
    lastAsked_ = now;
    reasonPending_ = false;
}

void TopologyRefreshPolicy::noteAskFailed(Clock::time_point now) {
    // Not a pending reason: a cluster nobody answers for is asked once a second, not at
    // every step of the caller's loop.
    lastAsked_ = now;
    reasonPending_ = false;
    unsettledUntil_ = std::max(unsettledUntil_, now + timing_.settleWindow);
}

void TopologyRefreshPolicy::noteRedirect() {
    reasonPending_ = true;
}

void TopologyRefreshPolicy::noteNodeLost(Clock::time_point now) {
    reasonPending_ = true;
    unsettledUntil_ = std::max(unsettledUntil_, now + timing_.settleWindow);
}

bool TopologyRefreshPolicy::dueForRefresh(Clock::time_point now) const {
    if (!lastAsked_ || reasonPending_) return true;
    const auto interval = unsettled(now) ? timing_.unsettled : timing_.quiet;
    return now - *lastAsked_ >= interval;
}

}  // namespace lockscope::inspect
