#pragma once
// The one way LockScope writes a duration for people: the CLI's tables, the window's cells and
// the teaching narration all call this, so "12 min 05 s" reads the same everywhere.

#include <cstdint>
#include <string>

namespace lockscope {

enum class DurationPrecision {
    // For values that tick (time left, age): as many digits as a reader can use at a glance —
    // "850 ms", "4.2 s", "45 s", "12 min 05 s", "3 h 07 min", "5 days".
    Rounded,
    // For values someone chose (a story's TTL, a pause): every millisecond kept, in the largest
    // unit that shows it without rounding — "200 ms", "1.5 s", "30 s", "90 s".
    Exact,
};

// ms must not be negative: what a negative value means ("no TTL", "no key") is the caller's.
std::string formatDuration(std::int64_t ms,
                           DurationPrecision precision = DurationPrecision::Rounded);

}  // namespace lockscope
