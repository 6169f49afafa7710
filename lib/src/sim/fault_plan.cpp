#include "lockscope/sim/fault_plan.h"

#include <algorithm>

namespace lockscope::sim {

namespace {

// The end of the pauses (they may chain or overlap) covering t, or t.
VirtualMs outOfPauses(const std::vector<PauseFault>& pauses, const std::string& actor,
                      VirtualMs t) {
    for (bool moved = true; moved;) {
        moved = false;
        for (const auto& p : pauses)
            if (p.actor == actor && p.from <= t && t < p.to) {
                t = p.to;
                moved = true;
            }
    }
    return t;
}

// The first pause of actor starting after t, if any.
std::optional<VirtualMs> nextPauseAfter(const std::vector<PauseFault>& pauses,
                                        const std::string& actor, VirtualMs t) {
    std::optional<VirtualMs> next;
    for (const auto& p : pauses)
        if (p.actor == actor && p.from > t && (!next || p.from < *next)) next = p.from;
    return next;
}

}  // namespace

VirtualMs FaultPlan::effectiveWake(const std::string& actor, VirtualMs wake,
                                   std::optional<VirtualMs> workFrom) const {
    if (!workFrom || wake <= *workFrom) return outOfPauses(pauses, actor, wake);
    // Run the work forward, standing still while frozen.
    VirtualMs t = *workFrom, left = wake - *workFrom;
    for (;;) {
        t = outOfPauses(pauses, actor, t);
        if (left == 0) return t;
        const std::optional<VirtualMs> frozen = nextPauseAfter(pauses, actor, t);
        const VirtualMs run = frozen ? std::min(left, *frozen - t) : left;
        t += run;
        left -= run;
    }
}

std::optional<VirtualMs> FaultPlan::crashTime(const std::string& actor) const {
    std::optional<VirtualMs> earliest;
    for (const auto& c : crashes)
        if (c.actor == actor && (!earliest || c.at < *earliest)) earliest = c.at;
    return earliest;
}

bool FaultPlan::pausedAt(const std::string& actor, VirtualMs t) const {
    for (const auto& p : pauses)
        if (p.actor == actor && p.from <= t && t < p.to) return true;
    return false;
}

}  // namespace lockscope::sim
