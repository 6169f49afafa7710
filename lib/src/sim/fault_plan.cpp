#include "lockscope/sim/fault_plan.h"

namespace lockscope::sim {

VirtualMs FaultPlan::effectiveWake(const std::string& actor, VirtualMs wake) const {
    // Pauses may chain or overlap: keep pushing until no pause covers the wake time.
    for (bool moved = true; moved;) {
        moved = false;
        for (const auto& p : pauses)
            if (p.actor == actor && p.from <= wake && wake < p.to) {
                wake = p.to;
                moved = true;
            }
    }
    return wake;
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
