#include "redlock_rules.h"

#include <chrono>

#include "lockscope/redlock/validity.h"

namespace lockscope::sim {

// The library's rules, in the simulator's integer milliseconds: the teaching story and
// the real Redlock cannot disagree.
int redlockMajority(std::size_t nodes) {
    return redlockQuorum(nodes);
}

std::int64_t redlockDriftMicros(VirtualMs ttl) {
    return redlockDriftAllowance(std::chrono::milliseconds(ttl)).count();
}

std::int64_t redlockValidityMicros(VirtualMs ttl, VirtualMs elapsed) {
    return redlockValidity(std::chrono::milliseconds(ttl), std::chrono::milliseconds(elapsed))
        .count();
}

}  // namespace lockscope::sim
