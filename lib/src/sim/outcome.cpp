#include "lockscope/sim/outcome.h"

namespace lockscope::sim {

std::string formatOutcome(const OutcomeSummary& o) {
    std::string s;
    auto line = [&](const char* name, int value) {
        s += "  ";
        s += name;
        s += ": " + std::to_string(value) + "\n";
    };
    line("emails sent", o.emailsSent);
    line("duplicate runs", o.duplicateRuns);
    line("foreign deletions", o.foreignDeletions);
    line("corrupted writes", o.corruptedWrites);
    line("stale writes rejected", o.staleWritesRejected);
    line("runs started", o.runsStarted);
    line("runs completed", o.runsCompleted);
    line("runs refused the lock", o.runsRefused);
    line("runs aborted (lock lost)", o.runsAborted);
    line("runs crashed", o.runsCrashed);
    line("emails held back by the date key", o.emailsSuppressed);
    line("corrupted reports emailed", o.corruptedReportsEmailed);
    line("stale writes accepted", o.staleWritesAccepted);
    line("locks lost under a working holder", o.leaseLapses);
    line("orphan locks released", o.orphansReleased);
    s += std::string("  output file intact at the end: ") + (o.outputFileIntact ? "yes" : "no") +
         "\n";
    for (const auto& p : o.printed) s += "  printed: " + p + "\n";
    return s;
}

const std::vector<ComparisonRow>& comparisonRows() {
    static const std::vector<ComparisonRow> rows = {
        {"Emails sent", [](const OutcomeSummary& o) { return o.emailsSent; }},
        {"Duplicate runs", [](const OutcomeSummary& o) { return o.duplicateRuns; }},
        {"Foreign deletions", [](const OutcomeSummary& o) { return o.foreignDeletions; }},
        {"Corrupted writes", [](const OutcomeSummary& o) { return o.corruptedWrites; }},
        {"Stale writes rejected", [](const OutcomeSummary& o) { return o.staleWritesRejected; }},
    };
    return rows;
}

}  // namespace lockscope::sim
