#include "lockscope/redlock/validity.h"

#include <algorithm>

namespace lockscope {

using std::chrono::microseconds;
using std::chrono::milliseconds;

int redlockQuorum(std::size_t nodes) {
    return static_cast<int>(nodes / 2 + 1);
}

microseconds redlockDriftAllowance(milliseconds ttl) {
    // Integer arithmetic in microseconds: ttl_ms × 1000 × 0.01 = ttl_ms × 10 µs.
    auto proportional = microseconds(static_cast<std::int64_t>(
        static_cast<double>(microseconds(ttl).count()) * kRedlockClockDriftFactor));
    return proportional + microseconds(kRedlockDriftFloor);
}

microseconds redlockValidity(milliseconds ttl, microseconds elapsed) {
    return microseconds(ttl) - elapsed - redlockDriftAllowance(ttl);
}

milliseconds redlockDefaultNodeTimeout(milliseconds ttl) {
    return std::clamp(ttl / 10, milliseconds(1), milliseconds(50));
}

}  // namespace lockscope
