#pragma once
// A target's watch thread steps aside for the scrapes. Fifty targets' watches are fifty
// threads that want a core now and then; the HTTP workers that answer a scrape only copy
// prebuilt text, yet at the same priority a scrape waited for a core behind them (issue 36:
// p99 1 s on a loaded 2-core machine with a p50 of 27 ms). A watch thread in steady state
// runs at a lower priority (nice), so the scheduler gives a waking HTTP worker the core
// first; a watch only falls behind by a few milliseconds, never by a census interval.
// The first census keeps the normal priority: a new target's metrics wait for it (goal 30 s).

namespace lockscope::exporter {

// How much lower than the process a watch thread in steady state runs (nice 5: about a
// third of a normal thread's weight in Linux's scheduler).
inline constexpr int kSteadyWatchNice = 5;

// Lowers the calling thread's priority by kSteadyWatchNice, once (a thread cannot raise it
// back without privilege). Linux only (where nice is per thread); nothing elsewhere, or when
// the system refuses (the watch then runs as before).
void lowerThisWatchThreadPriority();

}  // namespace lockscope::exporter
