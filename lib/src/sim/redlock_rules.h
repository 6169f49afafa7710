#pragma once
// Redlock's majority and validity as the simulated client applies them, in virtual time.
// They follow lockscope/redlock/validity.h to the microsecond and take its constants
// (kRedlockClockDriftFactor, kRedlockDriftFloor). The functions themselves live in the
// lockscope_redlock module, which lockscope_sim does not link (lib/CMakeLists.txt gives
// the sim only lockscope_core); once it does, these become calls to redlockQuorum,
// redlockDriftAllowance and redlockValidity. tests/sim/test_redlock_rules.cpp pins the
// numbers the library's own tests use.

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
