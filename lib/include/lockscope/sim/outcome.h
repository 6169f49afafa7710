#pragma once
// What a scenario run led to, counted by the simulator's rules as events happen (never
// written into a scenario). Each story's table shows the measures it declares.

#include <cstdint>
#include <string>
#include <vector>

namespace lockscope::sim {

// The properties --explore checks (explore_properties.h), judged once when a run ends, so the
// replay's verdict and --explore read the same answer.
struct PropertiesBroken {
    bool mutualExclusion = false;      // two instances believed they held the lock at once
    bool staleWrite = false;           // a write accepted after a newer holder's (write_order.h)
    bool duplicateSideEffect = false;  // a second email, a seat sold twice
    bool stuckLock = false;            // a key with no TTL left behind by a dead holder
    // Who believed they held it together, by their beliefs (one server): "b and c" per pair.
    std::vector<std::string> overlaps;
    bool operator==(const PropertiesBroken&) const = default;
};

struct OutcomeSummary {
    int emailsSent = 0;
    int duplicateRuns = 0;            // runs started while another run was alive or had completed
    int duplicatesAfterLockLost = 0;  // another run still worked, its lock expired or deleted
    int duplicatesAfterJobDone = 0;   // the job had finished: no lock could stop this run
    int foreignDeletions = 0;         // a DEL/release that removed a live holder's lock
    int corruptedWrites = 0;          // chunk writes into a file another run had touched
    int staleWritesRejected = 0;

    int runsStarted = 0;
    int runsCompleted = 0;
    int runsRefused = 0;  // the lock was taken: the instance skipped the job
    int runsAborted = 0;  // renewal failed: the instance stopped working
    int runsCrashed = 0;
    int emailsSuppressed = 0;  // held back by the idempotency key
    // The lock's holder's email held back because a writer whose lock was gone had claimed
    // the date key first: judged by who held the lock, not by which claim came second.
    int holderEmailsHeldBack = 0;
    int corruptedReportsEmailed = 0;
    // The report row's writes, judged by write_order.h: accepted after a newer holder's
    // write (stale), or after the writer's lease ended with no newer write yet (late).
    int staleWritesAccepted = 0;
    int lateWrites = 0;
    int tiedWritesRejected = 0;     // refused only because a newer holder wrote the same number
    int lateWritesRejected = 0;     // refused after the lease ended, no newer holder had written
    int leaseLapses = 0;            // a lock expired or was deleted while its holder still worked
    int orphansReleased = 0;        // a crashed holder's lock removed (safely) by someone else
    bool outputFileIntact = false;  // at this point of the story
    std::vector<std::string> printed;  // what a scenario's script printed (expiry-race)
    // How long an orphan lock (its holder crashed) kept the job out until someone released
    // it: the runs refused meanwhile are an outage, not a correct night.
    std::int64_t orphanBlockedMs = 0;
    bool scriptOnly = false;  // a script with no report job: formatOutcome shows its own lines
    int lostUpdates = -1;     // atomic-counter: adds made minus the counter's end value; -1: n/a
    int updatesMade = 0;      // atomic-counter: adds finished (the write, or the INCR, sent)
    int updateCommands = 0;   // the commands those adds took, refused lock attempts included
    // atomic-counter: how each write-back of a GET-then-SET stood, judged by the rules at
    // the SET. Without a lock at all; or under a lock whose key had already expired, its
    // TTL spent while the writer was still between its GET and its SET (the cause the
    // verdict names for updates lost under a lock).
    int updatesWithoutLock = 0;
    int updatesAfterLockExpired = 0;

    // Stories whose clients tell the rules what they believe they hold (Redlock, failover,
    // seat-hold, and watchdog on one server): two holders at once is counted from those
    // beliefs, not read from the lanes. Not "several servers": the watchdog story has one.
    // Set by those scenarios: formatOutcome shows this block and --explore reads its count.
    bool countsBeliefOverlaps = false;
    int overlappingHolds = 0;  // a client came to believe it held what another believed it held
    // What made each overlap possible (the earlier holder's key was gone where the later got
    // it): its lease had run out, a failover promoted a node without it, a clock jumped.
    int overlapsAfterLeaseExpired = 0;
    int overlapsAfterFailover = 0;
    int overlapsAfterClockJump = 0;
    int holderWritesRejected = 0;  // fenced writes refused although the writer held the lock
    int lockAttemptsFailed = 0;    // Redlock: no majority or no validity left; gave the lock back
    int waitsShort = 0;            // WAIT returned fewer replicas than asked for
    int bookingsConfirmed = 0;     // rows the bookings table took
    int bookingsRefused = 0;       // second confirmations the database's rule refused cleanly
    int seatsSoldTwice = 0;        // a seat with more than one confirmed booking

    PropertiesBroken broken;  // set when the run ends (Simulator::finish)

    bool operator==(const OutcomeSummary&) const = default;
};

// One "name: value" line per field that matters, in a fixed order.
std::string formatOutcome(const OutcomeSummary& outcome);

// How a table should read a row's number: most count harm (0 is good), some count the
// protection working (more is good), the report's email should go out exactly once, and a
// cost (commands per update) is neither good nor bad.
enum class RowSense { Harm, Protection, ExactlyOne, Cost };

// One measure of a run, a row of a story's comparison table. Each story declares its own
// (Scenario::measures, story_measures.h).
struct ComparisonRow {
    std::string label;
    int (*value)(const OutcomeSummary&);
    RowSense sense = RowSense::Harm;
};

}  // namespace lockscope::sim
