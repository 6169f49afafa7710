#include "lockscope/sim/run_verdict.h"

#include <vector>

#include "lockscope/sim/virtual_time.h"

namespace lockscope::sim {

namespace {

using Phrases = std::vector<std::string>;

std::string times(int n) {
    return n == 1 ? "once" : std::to_string(n) + " times";
}

// "3 updates were lost", "1 update was lost".
std::string counted(int n, const std::string& one, const std::string& many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string joined(const Phrases& phrases) {
    std::string s;
    for (std::size_t i = 0; i < phrases.size(); ++i) {
        if (i > 0) s += i + 1 == phrases.size() ? " and " : ", ";
        s += phrases[i];
    }
    return s;
}

// "a and b, b and c": pairs that already contain "and".
std::string listed(const Phrases& pairs) {
    std::string s;
    for (const auto& p : pairs) s += (s.empty() ? "" : ", ") + p;
    return s;
}

// The report stories are the ones whose email should go out exactly once.
bool reportStory(const OutcomeSummary& o) {
    return !o.scriptOnly && !o.countsBeliefOverlaps;
}

// Why the counter lost updates, from what the rules saw at each write-back: a lock that
// expired while its holder was still between GET and SET (and who took it meanwhile), or
// no lock at all. Empty when nothing was lost or no write-back explains it.
std::string lostUpdateCause(const OutcomeSummary& o) {
    if (o.lostUpdates <= 0) return {};
    if (o.updatesAfterLockExpired > 0) {
        std::string s = "Why: the lock's TTL ran out " + times(o.updatesAfterLockExpired) +
                        " while its holder was still inside its read-modify-write, between its "
                        "GET and its SET";
        if (o.overlapsAfterLeaseExpired > 0)
            s += ", so a second worker took the lock and both held it at once " +
                 times(o.overlapsAfterLeaseExpired) + ", writing back counts from the same read";
        return s + ".";
    }
    if (o.updatesWithoutLock > 0)
        return "Why: " + counted(o.updatesWithoutLock, "update", "updates") +
               " read the counter and wrote it back with no lock and no atomic command between "
               "the GET and the SET, so a worker overwrote a count another had just written.";
    return {};
}

// Results that are wrong at the end of the run: what a user of the system would notice.
Phrases damage(const OutcomeSummary& o) {
    Phrases p;
    if (o.lostUpdates > 0)
        p.push_back(counted(o.lostUpdates, "update was lost", "updates were lost"));
    if (reportStory(o) && o.emailsSent > 1)
        p.push_back("finance got " + std::to_string(o.emailsSent) + " emails instead of one");
    if (reportStory(o) && o.emailsSent == 0) p.push_back("no report email went out");
    if (o.corruptedReportsEmailed > 0)
        p.push_back(counted(o.corruptedReportsEmailed, "corrupted report was emailed",
                            "corrupted reports were emailed"));
    if (o.corruptedWrites > 0)
        p.push_back(counted(o.corruptedWrites, "write corrupted what another holder had written",
                            "writes corrupted what another holder had written"));
    if (o.staleWritesAccepted > 0)
        p.push_back(counted(o.staleWritesAccepted, "stale write was accepted",
                            "stale writes were accepted"));
    if (o.seatsSoldTwice > 0)
        p.push_back(counted(o.seatsSoldTwice, "seat was sold twice", "seats were sold twice"));
    // The explorer's properties (OutcomeSummary::broken) not already told by a count above:
    // the verdict and --explore read the same judgement, so they cannot disagree.
    if (o.broken.staleWrite && o.staleWritesAccepted == 0 && o.corruptedWrites == 0 &&
        o.lostUpdates <= 0 && o.foreignDeletions == 0)
        p.push_back("a write computed from an out-of-date read was accepted");
    if (o.broken.stuckLock)
        p.push_back(
            "a lock with no TTL was left behind by a crashed holder: nothing will "
            "ever release it");
    if (o.holderEmailsHeldBack > 0)
        p.push_back(counted(o.holderEmailsHeldBack,
                            "email of the lock's holder was held back by the date key while the "
                            "one that went out came from a run whose lock was gone",
                            "emails of the lock's holder were held back by the date key while the "
                            "one that went out came from a run whose lock was gone"));
    if (o.holderWritesRejected > 0)
        p.push_back(counted(o.holderWritesRejected,
                            "write was refused although its writer held the lock",
                            "writes were refused although their writers held the lock"));
    return p;
}

// The lock failed to keep holders apart: harmless only when something else caught it.
Phrases breaches(const OutcomeSummary& o) {
    Phrases p;
    // The counter's cause sentence already tells its overlaps.
    if (o.overlappingHolds > 0 && lostUpdateCause(o).empty())
        p.push_back("two clients held the lock at the same time " + times(o.overlappingHolds));
    if (o.foreignDeletions > 0)
        p.push_back("a client deleted a lock it did not own " + times(o.foreignDeletions));
    if (o.broken.mutualExclusion && o.overlappingHolds == 0 && o.duplicateRuns == 0)
        p.push_back(
            "two clients believed they held the lock at the same time" +
            (o.broken.overlaps.empty() ? std::string() : " (" + listed(o.broken.overlaps) + ")"));
    if (o.duplicateRuns > 0)
        p.push_back("the job started again while another run was alive or done " +
                    times(o.duplicateRuns));
    if (o.leaseLapses > 0)
        p.push_back("a lock expired or was deleted under a working holder " + times(o.leaseLapses));
    if (o.lateWrites > 0)
        p.push_back(counted(o.lateWrites,
                            "late write landed after its writer's lease ended (no newer holder "
                            "had written yet, so nothing newer was overwritten)",
                            "late writes landed after their writers' leases ended (no newer "
                            "holder had written yet, so nothing newer was overwritten)"));
    if (o.tiedWritesRejected > 0)
        p.push_back(counted(o.tiedWritesRejected,
                            "stale write was refused only because the newer holder wrote the "
                            "same number first: luck of order, not fencing",
                            "stale writes were refused only because the newer holder wrote the "
                            "same number first: luck of order, not fencing"));
    return p;
}

// Safeguards that did their work in this run.
Phrases protections(const OutcomeSummary& o) {
    Phrases p;
    if (o.staleWritesRejected > 0)
        p.push_back(counted(o.staleWritesRejected, "stale write was rejected by the fencing token",
                            "stale writes were rejected by the fencing token"));
    if (o.lateWritesRejected > 0)
        p.push_back(counted(o.lateWritesRejected, "late write was rejected by the fencing token",
                            "late writes were rejected by the fencing token"));
    if (o.emailsSuppressed > 0)
        p.push_back(counted(o.emailsSuppressed, "email was held back by the date key",
                            "emails were held back by the date key"));
    if (o.bookingsRefused > 0)
        p.push_back(counted(o.bookingsRefused, "second confirmation was refused by the database",
                            "second confirmations were refused by the database"));
    if (o.runsAborted > 0)
        p.push_back(counted(o.runsAborted, "run stopped when it lost its lock",
                            "runs stopped when they lost their lock"));
    return p;
}

// A story with nothing behind the lock (the guide's scripts, failover): the lock failing to
// keep clients apart is the harm itself, not a cause of one.
bool lockIsTheResult(const OutcomeSummary& o) {
    const bool guardsSomething = o.lostUpdates >= 0 || reportStory(o) || o.corruptedWrites > 0 ||
                                 o.staleWritesAccepted > 0 || o.staleWritesRejected > 0 ||
                                 o.lateWrites > 0 || o.tiedWritesRejected > 0 ||
                                 o.lateWritesRejected > 0 || o.bookingsConfirmed > 0 ||
                                 o.holderWritesRejected > 0;
    return !guardsSomething;
}

// What "correct" means for this kind of story, said only when nothing above was counted.
std::string whatHeld(const OutcomeSummary& o) {
    if (o.lostUpdates >= 0) return "no update was lost";
    if (o.countsBeliefOverlaps)
        return "no two clients held the lock at once and no result was wrong";
    if (o.scriptOnly) return "no client deleted a lock it did not own";
    return "one report email, no duplicate run and no corrupted write";
}

// Kleppmann's split (and antirez's reply: which guarantee do you need?), said where the lock
// failed but nothing was damaged: a lock for efficiency may let two run now and then; a lock
// for correctness must never, and needs a check made by the resource.
std::string frame(bool resourceChecked) {
    return resourceChecked
               ? "For efficiency that costs some repeated work; for correctness it was the "
                 "resource's own check, not the lock, that kept the result right."
               : "For efficiency this is fine (at worst some work runs twice); for correctness "
                 "it is not: nothing but timing kept the result right.";
}

}  // namespace

std::string runVerdict(const OutcomeSummary& o) {
    Phrases harm = damage(o), broken = breaches(o);
    const Phrases caught = protections(o);
    if (lockIsTheResult(o)) {
        harm.insert(harm.end(), broken.begin(), broken.end());
        broken.clear();
    }
    std::string s;
    if (!harm.empty()) {
        s = "This run went wrong: " + joined(harm) + ".";
        if (const std::string why = lostUpdateCause(o); !why.empty()) s += " " + why;
        if (!broken.empty()) s += " The lock did not hold: " + joined(broken) + ".";
        if (!caught.empty()) s += " Caught in time: " + joined(caught) + ".";
        return s +
               " For correctness a lock alone is not enough: the resource itself must "
               "check (a fencing token, a constraint).";
    }
    if (!broken.empty()) {
        // Only what was counted: "nothing was damaged" is claimed when a safeguard caught it.
        s = "The lock did not hold in this run: " + joined(broken) + ".";
        if (!caught.empty()) s += " What it guarded stayed correct: " + joined(caught) + ".";
        return s + " " + frame(!caught.empty());
    }
    s = "This run came out correct: " + whatHeld(o) + ".";
    if (!caught.empty()) s += " " + joined(caught) + ".";
    if (o.orphanBlockedMs > 0 && o.runsRefused > 0)
        s += " But late: the lock of a crashed run, with no TTL, kept the job out for " +
             formatDuration(o.orphanBlockedMs) + " until it was released by hand, and " +
             counted(o.runsRefused, "run was refused", "runs were refused") +
             " meanwhile. A lock that never expires trades safety for an outage.";
    return s;
}

}  // namespace lockscope::sim
