#include "redlock_rules.h"

#include <chrono>

#include "lockscope/redlock/validity.h"

namespace lockscope::sim {

int redlockMajority(std::size_t nodes) {
    return static_cast<int>(nodes / 2 + 1);
}

std::int64_t redlockDriftMicros(VirtualMs ttl) {
    // As redlockDriftAllowance: ttl in µs × the factor, plus the floor.
    const auto proportional =
        static_cast<std::int64_t>(static_cast<double>(ttl * 1000) * kRedlockClockDriftFactor);
    return proportional + std::chrono::microseconds(kRedlockDriftFloor).count();
}

std::int64_t redlockValidityMicros(VirtualMs ttl, VirtualMs elapsed) {
    return ttl * 1000 - elapsed * 1000 - redlockDriftMicros(ttl);
}

}  // namespace lockscope::sim
