#pragma once
// Redlock's arithmetic, kept apart so the teaching panel and the tests can use it without
// servers: the majority of N nodes, the clock-drift allowance, and the validity that is left
// of a lease after the time spent acquiring it.

#include <chrono>
#include <cstddef>

namespace lockscope {

// The Redlock spec's drift allowance: TTL × 0.01 + 2 ms. It covers the rate at which the
// nodes' clocks may run faster than ours during one lease; it cannot cover a clock that
// jumps (an NTP step, a VM resumed after suspension).
inline constexpr double kRedlockClockDriftFactor = 0.01;
inline constexpr std::chrono::milliseconds kRedlockDriftFloor{2};

// N/2 + 1: no two clients can both reach it on the same N nodes at the same time.
int redlockQuorum(std::size_t nodes);

// TTL × kRedlockClockDriftFactor + kRedlockDriftFloor, in microseconds.
std::chrono::microseconds redlockDriftAllowance(std::chrono::milliseconds ttl);

// TTL − elapsed − drift allowance. Zero or negative means the lease may already have ended
// on some node by the time we know we got it: the lock does not hold.
std::chrono::microseconds redlockValidity(std::chrono::milliseconds ttl,
                                          std::chrono::microseconds elapsed);

// The per-node timeout when the caller gives none: TTL / 10, at most 50 ms and at least
// 1 ms. It must stay far below the TTL, or a single slow node eats the whole lease.
std::chrono::milliseconds redlockDefaultNodeTimeout(std::chrono::milliseconds ttl);

}  // namespace lockscope
