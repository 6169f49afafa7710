#include "lockscope/sim/outcome.h"

namespace lockscope::sim {

namespace {

void line(std::string& s, const char* name, int value) {
    s += "  ";
    s += name;
    s += ": " + std::to_string(value) + "\n";
}

// The multi-server stories have no report file or email: their own lines only.
std::string formatDistributed(const OutcomeSummary& o) {
    std::string s;
    line(s, "times two clients held it at once", o.overlappingHolds);
    line(s, "  of which after the first holder's lease ran out", o.overlapsAfterLeaseExpired);
    line(s, "  of which after a failover lost its key", o.overlapsAfterFailover);
    line(s, "  of which after a clock jump expired its key", o.overlapsAfterClockJump);
    line(s, "lock attempts that failed or were refused", o.lockAttemptsFailed);
    line(s, "WAITs short of replicas", o.waitsShort);
    line(s, "stale writes accepted (after a newer holder's)", o.staleWritesAccepted);
    line(s, "late writes accepted (lease gone, no newer holder's yet)", o.lateWrites);
    line(s, "stale writes rejected", o.staleWritesRejected);
    line(s, "stale writes refused only because the same number came first", o.tiedWritesRejected);
    line(s, "writes rejected although the writer held the lock", o.holderWritesRejected);
    line(s, "corrupted writes", o.corruptedWrites);
    line(s, "bookings confirmed", o.bookingsConfirmed);
    line(s, "confirmations refused by the database", o.bookingsRefused);
    line(s, "seats sold twice", o.seatsSoldTwice);
    return s;
}

}  // namespace

// The guide's script (expiry-race) has no report file, email or job: what it printed, and
// whether a client removed a lock it did not own.
std::string formatScript(const OutcomeSummary& o) {
    std::string s;
    if (o.lostUpdates >= 0) {
        line(s, "lost updates", o.lostUpdates);
        // The lock's lines only where a lock was used and failed: mode=0 and INCR have none.
        if (o.updatesAfterLockExpired > 0) {
            line(s, "updates written back after their lock expired", o.updatesAfterLockExpired);
            line(s, "times two clients held the lock at once", o.overlappingHolds);
        }
        return s;
    }
    line(s, "foreign deletions", o.foreignDeletions);
    for (const auto& pair : o.broken.overlaps)
        s += "  believed they held the lock at the same time: " + pair + "\n";
    for (const auto& p : o.printed) s += "  printed: " + p + "\n";
    return s;
}

std::string formatOutcome(const OutcomeSummary& o) {
    if (o.countsBeliefOverlaps) return formatDistributed(o);
    if (o.scriptOnly) return formatScript(o);
    std::string s;
    auto line = [&](const char* name, int value) { lockscope::sim::line(s, name, value); };
    line("emails sent", o.emailsSent);
    line("duplicate runs", o.duplicateRuns);
    line("  of which while another run's lock was lost", o.duplicatesAfterLockLost);
    line("  of which after the job had finished", o.duplicatesAfterJobDone);
    line("foreign deletions", o.foreignDeletions);
    line("corrupted writes", o.corruptedWrites);
    line("stale writes rejected", o.staleWritesRejected);
    line("runs started", o.runsStarted);
    line("runs completed", o.runsCompleted);
    line("runs refused the lock", o.runsRefused);
    line("runs aborted (lock lost)", o.runsAborted);
    line("runs crashed", o.runsCrashed);
    line("emails held back by the date key", o.emailsSuppressed);
    line("  the holder's held back, a lock-less run's sent", o.holderEmailsHeldBack);
    line("corrupted reports emailed", o.corruptedReportsEmailed);
    line("stale writes accepted (after a newer holder's)", o.staleWritesAccepted);
    line("late writes accepted (lease gone, no newer holder's yet)", o.lateWrites);
    line("locks lost under a working holder", o.leaseLapses);
    line("orphan locks released", o.orphansReleased);
    s += std::string("  output file intact at the end: ") + (o.outputFileIntact ? "yes" : "no") +
         "\n";
    for (const auto& p : o.printed) s += "  printed: " + p + "\n";
    return s;
}

}  // namespace lockscope::sim
