#pragma once
// The text form of a run: one beat per line (time, actor, command, reply, narration, and
// any predict prompt), then the outcome summary. Byte-stable for a given Recording.

#include <string>

#include "lockscope/sim/outcome.h"
#include "lockscope/sim/timeline.h"

namespace lockscope::sim {

std::string formatBeat(const Beat& beat);
std::string formatTranscript(const Recording& recording);

}  // namespace lockscope::sim
