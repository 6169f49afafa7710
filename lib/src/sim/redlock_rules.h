#pragma once
// Redlock's majority and validity as the simulated client applies them, in virtual time:
// thin wrappers over lockscope/redlock/validity.h (redlockQuorum, redlockDriftAllowance,
// redlockValidity), so the story and the library share one definition.

#include <cstddef>
#include <cstdint>

#include "lockscope/sim/virtual_time.h"

namespace lockscope::sim {

// N/2 + 1.
int redlockMajority(std::size_t nodes);
// TTL × 0.01 + 2 ms, in microseconds.
std::int64_t redlockDriftMicros(VirtualMs ttl);
// TTL − elapsed − drift allowance, in microseconds; <= 0 means the lock does not hold.
std::int64_t redlockValidityMicros(VirtualMs ttl, VirtualMs elapsed);

}  // namespace lockscope::sim
