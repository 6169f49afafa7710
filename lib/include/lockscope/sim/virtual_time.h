#pragma once
// Virtual time of the teaching simulator: whole milliseconds since the scenario began.
// Nothing in the simulator reads a real clock; live mode maps virtual time onto a scaled
// steady clock (see live_replay.h).

#include <cstdint>
#include <string>

namespace lockscope::sim {

using VirtualMs = std::int64_t;

constexpr VirtualMs kSecond = 1000;

// "36.000s": fixed width and precision, so transcripts compare byte for byte.
std::string formatVirtualTime(VirtualMs t);

// "10 s", "750 ms", "1.5 s": for narration sentences.
std::string formatDuration(VirtualMs d);

}  // namespace lockscope::sim
