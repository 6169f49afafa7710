#pragma once
// The after-run verdict of a story: what went wrong, whether the lock held, and what
// protection worked, built from the counts the rules made during the run. A story's own
// summary only describes its setup; only this sentence says how a run came out, so a
// parameter that changes the outcome (a think time past the lock's TTL) changes the verdict.

#include <string>

#include "lockscope/sim/outcome.h"

namespace lockscope::sim {

// One to three sentences, e.g. "This run went wrong: 2 updates were lost. The lock did not
// hold: a lock expired under a working holder 2 times."
std::string runVerdict(const OutcomeSummary& outcome);

}  // namespace lockscope::sim
