// StepContext's resources: the report output file, finance's outbox and the fenced store.
// Each records its event and beat and counts the outcome by the rules.
#include "lockscope/sim/step_context.h"

#include <algorithm>
#include <optional>

namespace lockscope::sim {

void StepContext::openFile() {
    int truncated = world_.file.open(self_.name());
    world_.outcome.outputFileIntact = world_.file.intact();
    int e = emit(EventKind::FileOpened, world_.fileLane,
                 self_.name() + " opens the file for writing (truncates it)");
    if (truncated > 0)
        beat(e, self_.name() + " opens the report file for writing, which truncates it: " +
                    std::to_string(truncated) + " chunk(s) written by another run are gone.");
}

bool StepContext::writeChunk(int chunk) {
    OutputFile::WriteResult w = world_.file.writeChunk(self_.name(), chunk);
    std::string after = world_.file.describe();
    world_.outcome.outputFileIntact = world_.file.intact();
    int e = emit(EventKind::ChunkWritten, world_.fileLane,
                 self_.name() + " writes chunk " + std::to_string(chunk) + ": " + after +
                     (w.interleaved ? "  (interleaved)" : ""));
    if (w.interleaved) {
        ++world_.outcome.corruptedWrites;
        beat(e, self_.name() + " writes chunk " + std::to_string(chunk) +
                    " into a file another run has touched (was: " + w.before + ", now: " + after +
                    "): a corrupted write.");
    }
    return !w.interleaved;
}

void StepContext::closeFile() {
    world_.file.close(self_.name());
}

void StepContext::sendEmail() {
    bool intact = world_.file.intact();
    world_.outbox.deliver(now(), self_.name(), intact);
    ++world_.outcome.emailsSent;
    if (!intact) ++world_.outcome.corruptedReportsEmailed;
    int e = emit(EventKind::EmailSent, world_.outboxLane,
                 "email #" + std::to_string(world_.outcome.emailsSent) + " from " + self_.name());
    beat(e,
         "Finance receives report email #" + std::to_string(world_.outcome.emailsSent) + " (from " +
             self_.name() + ")" +
             (intact ? "." : "; the attached file is corrupted: " + world_.file.describe() + "."));
}

bool StepContext::sendEmailOnce() {
    std::string key = "email:" + world_.reportDate;
    bool first = world_.store.claimOnce(key);
    if (live_.store) {
        bool real = live_.store->claimOnce(key);
        if (real != first && live_.divergences)
            live_.divergences->push_back(formatVirtualTime(now()) + " claimOnce " + key +
                                         " differs between SQLite and the model");
        first = real;
    }
    const bool holds = holdsLockNow(world_, self_.name());
    if (first) {
        world_.emailClaimedBy = self_.name();
        world_.emailClaimedByHolder = holds;
        sendEmail();
        narrate("send_email_once(" + world_.reportDate + "): the first claim of " + key + ".");
        return true;
    }
    world_.outbox.suppress();
    int e = emit(EventKind::EmailSuppressed, world_.outboxLane, key + " already claimed");
    std::string text = "send_email_once(" + world_.reportDate + "): " + key +
                       " was already claimed, so no email goes out.";
    // Judged by who held the lock: the key kept a stale run's email and dropped the holder's.
    if (holds && !world_.emailClaimedByHolder) {
        ++world_.outcome.holderEmailsHeldBack;
        text += " But " + self_.name() + " holds the lock, and the claim was " +
                world_.emailClaimedBy + "'s, made after its lock was gone: the email that went " +
                "out came from the run that no longer held the lock, and the holder's was the " +
                "one held back.";
    } else {
        ++world_.outcome.emailsSuppressed;
    }
    beat(e, text);
    return false;
}

namespace {

// Where the writer's tenure falls in the order the lock changed hands: the moment it last
// learned it holds the lock, which is also when its fencing token is handed out. Not when its
// SET ran: a Redlock client that pauses while counting its replies becomes the holder when it
// finishes counting, after a client whose SETs ran later may already hold it (Kleppmann).
// Clients that record what they believe (Redlock, failover, watchdog) learn it when they
// believe; a single-node job learns it from its SET's reply, which the model gives the
// instant the SET runs. -1: it never held it.
VirtualMs learnedItHolds(const World& world, const std::string& actor) {
    VirtualMs believed = -1;
    for (const Belief& b : world.beliefs)
        if (b.actor == actor && b.resource == world.lockKey) believed = std::max(believed, b.since);
    if (believed >= 0) return believed;
    VirtualMs replied = -1;
    for (std::size_t n = 0; n < world.nodes.size(); ++n)
        if (const Holding* h = world.lastHoldingOf(actor, static_cast<int>(n)))
            replied = std::max(replied, h->since);
    return replied;
}

// Judges a write to the report row by the one definition (write_order.h) and counts it.
WriteClass judgeReportWrite(World& world, const std::string& actor, bool accepted,
                            std::optional<std::int64_t> fence) {
    const VirtualMs tenure = learnedItHolds(world, actor);
    const WriteClass c = world.reportWrites.judge({actor + "@" + std::to_string(tenure), tenure,
                                                   holdsLockNow(world, actor), accepted, fence});
    OutcomeSummary& o = world.outcome;
    switch (c) {
        case WriteClass::Current:
            break;
        case WriteClass::Late:
            ++o.lateWrites;
            break;
        case WriteClass::Stale:
            ++o.staleWritesAccepted;
            break;
        case WriteClass::RefusedStale:
            ++o.staleWritesRejected;
            break;
        case WriteClass::RefusedTie:
            ++o.tiedWritesRejected;
            break;
        case WriteClass::RefusedHolder:
            ++o.holderWritesRejected;
            break;
        case WriteClass::RefusedLate:
            ++o.lateWritesRejected;
            break;
    }
    return c;
}

// The beat's sentence for a fenced write, by how the rule judged it.
std::string fencedSaveText(WriteClass c, const std::string& actor, std::int64_t fence,
                           std::int64_t last, const std::string& newer) {
    const std::string head = "save_report with fence " + std::to_string(fence);
    switch (c) {
        case WriteClass::Current:
            return head + " is accepted.";
        case WriteClass::Late:
            return head + " is accepted, although " + actor +
                   " no longer holds the lock: a late write. No newer holder has written yet, "
                   "so nothing newer is overwritten.";
        case WriteClass::Stale:
            return head + " is accepted after " + newer + ", a newer holder, wrote: a stale " +
                   "write. The number did not tell the store that " + actor + "'s lock is older.";
        case WriteClass::RefusedStale:
            return head + " is rejected: fence " + std::to_string(last) + " of " + newer +
                   ", a newer holder, already wrote. The stale holder cannot overwrite the newer "
                   "report.";
        case WriteClass::RefusedTie:
            return head + " is rejected only because " + newer +
                   ", the newer holder, wrote the same number first. That is luck of order, not "
                   "fencing: had " +
                   actor +
                   " written first, its stale write would have been "
                   "accepted and the holder's refused. A number two holders can share is no "
                   "fencing token.";
        case WriteClass::RefusedHolder:
            return head + " is rejected: fence " + std::to_string(last) + " already wrote. Yet " +
                   actor +
                   " holds the lock now: the write that got there first came from a holder "
                   "whose lock is gone. A number that two holders can share is no fencing "
                   "token.";
        case WriteClass::RefusedLate:
            return head + " is rejected: fence " + std::to_string(last) + " already wrote, and " +
                   actor + " no longer holds the lock.";
    }
    return head + ".";
}

// The newest holder whose write the store took, before a write is judged.
std::string newestWriter(const World& world) {
    const auto& newest = world.reportWrites.newest();
    if (!newest) return {};
    return newest->holder.substr(0, newest->holder.rfind('@'));
}

}  // namespace

bool StepContext::fencedSave(const std::string& body, std::int64_t fence) {
    bool accepted = world_.store.write(world_.reportResource, body, fence);
    if (live_.store) {
        bool real = live_.store->write(world_.reportResource, body, fence);
        if (real != accepted && live_.divergences)
            live_.divergences->push_back(formatVirtualTime(now()) + " fenced write differs");
        accepted = real;
    }
    const std::string newer = newestWriter(world_);
    const WriteClass judged = judgeReportWrite(world_, self_.name(), accepted, fence);
    if (accepted) world_.storeWriter = self_.name();
    int e = emit(accepted ? EventKind::FencedWriteAccepted : EventKind::FencedWriteRejected,
                 world_.storeLane, "fence " + std::to_string(fence));
    recording_.events[e].command = "UPDATE reports SET body = ?, fence = " + std::to_string(fence) +
                                   " WHERE name = 'daily' AND fence < " + std::to_string(fence);
    recording_.events[e].reply = accepted ? "1 row" : "0 rows";
    beat(e, fencedSaveText(judged, self_.name(), fence,
                           world_.store.lastFence(world_.reportResource), newer));
    return accepted;
}

std::int64_t StepContext::readFence() {
    std::int64_t version = world_.store.lastFence(world_.reportResource);
    int e = emit(EventKind::Note, world_.storeLane, "version " + std::to_string(version));
    recording_.events[e].command = "SELECT fence FROM reports WHERE name = 'daily'";
    recording_.events[e].reply = std::to_string(version);
    beat(e, "The report row's version is " + std::to_string(version) + ".");
    return version;
}

std::int64_t StepContext::issueFencingToken() {
    std::int64_t token = world_.store.issueToken(world_.reportResource);
    int e = emit(EventKind::Note, world_.storeLane, "token " + std::to_string(token));
    recording_.events[e].command =
        "UPDATE fence_seq SET n = n + 1 WHERE name = 'daily' RETURNING n";
    recording_.events[e].reply = std::to_string(token);
    beat(e, "The counter hands " + self_.name() + " token " + std::to_string(token) +
                ": one higher than any token it handed out before.");
    return token;
}

void StepContext::plainSave(const std::string& body) {
    const std::string previous = world_.storeWriter;
    const WriteClass judged = judgeReportWrite(world_, self_.name(), true, std::nullopt);
    world_.store.overwrite(world_.reportResource, body);
    world_.storeWriter = self_.name();
    int e = emit(EventKind::FencedWriteAccepted, world_.storeLane, "no fence");
    recording_.events[e].command = "UPDATE reports SET body = ? WHERE name = 'daily'";
    recording_.events[e].reply = "1 row";
    std::string text = "The write has no fence to check, so the store takes it";
    // "on a majority" only where there is one to hold (Redlock's nodes).
    const std::string lost = ", although " + self_.name() + " no longer holds the lock" +
                             (world_.nodes.size() > 1 ? " on a majority" : "") + ": ";
    if (judged == WriteClass::Stale) {
        ++world_.outcome.corruptedWrites;
        text +=
            lost + "it overwrites " + previous + "'s newer report with stale data (a stale write)";
    } else if (judged == WriteClass::Late) {
        text += lost + "a late write. No newer holder has written yet";
    }
    beat(e, text + ".");
}

}  // namespace lockscope::sim

namespace lockscope::sim {

void StepContext::counterChecked(std::int64_t expected, std::int64_t actual) {
    world_.outcome.lostUpdates = static_cast<int>(expected - actual);
    note("The counter reads " + std::to_string(actual) + " after " + std::to_string(expected) +
         " adds" +
         (actual == expected ? ": no update was lost."
                             : ": " + std::to_string(expected - actual) +
                                   " update(s) were lost, each overwritten by a worker that had "
                                   "read the counter before it."));
}

}  // namespace lockscope::sim

namespace lockscope::sim {

void StepContext::updateMade(int commands) {
    ++world_.outcome.updatesMade;
    world_.outcome.updateCommands += commands;
}

void StepContext::counterWrittenBack() {
    const std::string& me = self_.name();
    const bool believesHeld =
        std::any_of(world_.beliefs.begin(), world_.beliefs.end(), [&](const Belief& b) {
            return b.current && b.actor == me && b.resource == world_.lockKey;
        });
    if (!believesHeld) {
        ++world_.outcome.updatesWithoutLock;
        return;
    }
    // The server's side: the worker's own key, gone by expiry while it thought.
    const Holding* mine = world_.lastHoldingOf(me);
    if (!mine || mine->current || mine->lostHow != "expired") return;
    ++world_.outcome.updatesAfterLockExpired;
    const Holding* now = world_.currentHolding();
    const std::string text = me + "'s lock expired at " + formatVirtualTime(mine->lostAt) +
                             ", before this write: " + me +
                             " writes back a count it read under a lock it no longer holds" +
                             (now ? " (" + now->holder + " holds it now)." : ".");
    facts_ += (facts_.empty() ? "" : " ") + text;
    appendToNarration(text);
}

}  // namespace lockscope::sim
