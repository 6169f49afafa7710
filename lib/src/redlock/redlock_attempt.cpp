#include "lockscope/redlock/redlock_attempt.h"

#include <algorithm>
#include <cstdio>

#include "lockscope/redlock/validity.h"

namespace lockscope {
namespace {

std::string milliseconds(std::chrono::microseconds us) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f ms", static_cast<double>(us.count()) / 1000.0);
    return buffer;
}

int count(const std::vector<NodeOutcome>& nodes, NodeVerdict verdict) {
    return static_cast<int>(
        std::count_if(nodes.begin(), nodes.end(),
                      [verdict](const NodeOutcome& o) { return o.verdict == verdict; }));
}

}  // namespace

const char* toString(NodeVerdict verdict) {
    switch (verdict) {
        case NodeVerdict::Granted:
            return "granted";
        case NodeVerdict::Refused:
            return "refused";
        case NodeVerdict::Error:
            return "error";
    }
    return "?";
}

const char* toString(RedlockOperation operation) {
    switch (operation) {
        case RedlockOperation::Acquire:
            return "acquire";
        case RedlockOperation::Extend:
            return "extend";
        case RedlockOperation::Release:
            return "release";
    }
    return "?";
}

int RedlockAttempt::granted() const {
    return count(nodes, NodeVerdict::Granted);
}
int RedlockAttempt::refused() const {
    return count(nodes, NodeVerdict::Refused);
}
int RedlockAttempt::errors() const {
    return count(nodes, NodeVerdict::Error);
}

RedlockAttempt::Clock::time_point RedlockAttempt::validUntil() const {
    return sentAt + ttl - redlockDriftAllowance(ttl);
}

std::string RedlockAttempt::summary() const {
    std::string out = std::string(toString(operation));
    if (operation == RedlockOperation::Acquire) out += " #" + std::to_string(number);
    out += " " + key + ": " + std::to_string(granted()) + "/" + std::to_string(nodes.size()) + " " +
           (operation == RedlockOperation::Release ? "released" : "granted") + " (quorum " +
           std::to_string(quorum) + ") in " + milliseconds(elapsed);
    if (operation != RedlockOperation::Release) out += ", validity " + milliseconds(validity);
    if (succeeded && operation != RedlockOperation::Release) out += " — held";
    if (!failure.empty()) out += " — " + failure;
    return out;
}

std::string RedlockAttempt::details() const {
    std::string out = summary();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const NodeOutcome& o = nodes[i];
        out += "\n  node " + std::to_string(i + 1) + " " + o.node + ": " + toString(o.verdict);
        if (o.error) out += std::string(" (") + toString(*o.error) + ")";
        out += " after " + milliseconds(o.latency) + " — " + o.reason;
    }
    return out;
}

}  // namespace lockscope
