#include "lockscope/sim/transcript.h"

#include <cstdio>

namespace lockscope::sim {

std::string formatBeat(const Beat& beat) {
    char head[64];
    std::snprintf(head, sizeof head, "%4d  %9s  %-8s  ", beat.index + 1,
                  formatVirtualTime(beat.time).c_str(), beat.actor.c_str());
    std::string line = head;
    if (!beat.command.empty()) line += beat.command + " -> " + beat.reply + "  ";
    line += "| " + beat.narration;
    if (beat.predict)
        line += "  [predict: " + beat.predict->question + " => " + beat.predict->answer + "]";
    return line;
}

std::string formatTranscript(const Recording& recording) {
    std::string out;
    for (const auto& beat : recording.beats) out += formatBeat(beat) + "\n";
    return out;
}

}  // namespace lockscope::sim
