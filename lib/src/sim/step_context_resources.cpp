// StepContext's resources: the report output file, finance's outbox and the fenced store.
// Each records its event and beat and counts the outcome by the rules.
#include "lockscope/sim/step_context.h"

#include <algorithm>

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
    if (first) {
        sendEmail();
        narrate("send_email_once(" + world_.reportDate + "): the first claim of " + key + ".");
        return true;
    }
    ++world_.outcome.emailsSuppressed;
    world_.outbox.suppress();
    int e = emit(EventKind::EmailSuppressed, world_.outboxLane, key + " already claimed");
    beat(e, "send_email_once(" + world_.reportDate + "): " + key +
                " was already claimed, so no email goes out.");
    return false;
}

bool StepContext::fencedSave(const std::string& body, std::int64_t fence) {
    bool accepted = world_.store.write(world_.reportResource, body, fence);
    if (live_.store) {
        bool real = live_.store->write(world_.reportResource, body, fence);
        if (real != accepted && live_.divergences)
            live_.divergences->push_back(formatVirtualTime(now()) + " fenced write differs");
        accepted = real;
    }
    bool stillHolds = holdsLockNow(world_, self_.name());
    if (accepted) world_.storeWriter = self_.name();
    int e = emit(accepted ? EventKind::FencedWriteAccepted : EventKind::FencedWriteRejected,
                 world_.storeLane, "fence " + std::to_string(fence));
    recording_.events[e].command = "UPDATE reports SET body = ?, fence = " + std::to_string(fence) +
                                   " WHERE name = 'daily' AND fence < " + std::to_string(fence);
    recording_.events[e].reply = accepted ? "1 row" : "0 rows";
    std::string text;
    if (accepted) {
        if (!stillHolds) ++world_.outcome.staleWritesAccepted;
        text = "save_report with fence " + std::to_string(fence) + " is accepted" +
               (stillHolds ? "."
                           : ", although " + self_.name() +
                                 " no longer holds the lock: no higher fence has written yet.");
    } else {
        const std::int64_t last = world_.store.lastFence(world_.reportResource);
        text = "save_report with fence " + std::to_string(fence) + " is rejected: fence " +
               std::to_string(last) + " already wrote.";
        if (stillHolds) {
            // The rule a fence must keep is broken: the lock's current holder lost its write.
            ++world_.outcome.holderWritesRejected;
            text += " Yet " + self_.name() +
                    " holds the lock now: the write that got there first came from a holder "
                    "whose lock is gone. A number that two holders can share is no fencing "
                    "token.";
        } else {
            ++world_.outcome.staleWritesRejected;
            text += " The stale holder cannot overwrite the newer report.";
        }
    }
    beat(e, text);
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
    const bool stillHolds = holdsLockNow(world_, self_.name());
    const std::string previous = world_.storeWriter;
    world_.store.overwrite(world_.reportResource, body);
    world_.storeWriter = self_.name();
    int e = emit(EventKind::FencedWriteAccepted, world_.storeLane, "no fence");
    recording_.events[e].command = "UPDATE reports SET body = ? WHERE name = 'daily'";
    recording_.events[e].reply = "1 row";
    std::string text = "The write has no fence to check, so the store takes it";
    if (stillHolds) {
        text += ".";
    } else {
        ++world_.outcome.staleWritesAccepted;
        text += ", although " + self_.name() + " no longer holds the lock on a majority";
        if (!previous.empty() && previous != self_.name()) {
            ++world_.outcome.corruptedWrites;
            text += ": it overwrites " + previous + "'s newer report with stale data";
        }
        text += ".";
    }
    beat(e, text);
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
