// StepContext: a job run's life on an instance (started, a duplicate and why, refused,
// completed, aborted) and the bands it opens and closes.
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

void StepContext::runStarted(std::int64_t fence) {
    // A duplicate is caused by a lost lock (another run is still working, its lock gone) or
    // by the job having finished already (no lock is held: nothing can stop a later run).
    std::string lostBy, doneBy;
    for (const auto& run : world_.runs) {
        if (run.actor == self_.name()) continue;
        if (run.state == RunState::Running) {
            const Holding* h = world_.lastHoldingOf(run.actor);
            lostBy += (lostBy.empty() ? "" : "; ") + run.actor + "'s job is still running" +
                      (h && !h->current ? ", but its lock " + describeLoss(*h) : std::string());
        } else if (run.state == RunState::Completed) {
            doneBy += (doneBy.empty() ? "" : ", ") + run.actor;
        }
    }
    const bool duplicate = !lostBy.empty() || !doneBy.empty();
    world_.runs.push_back({self_.name(), now(), RunState::Running, fence});
    ++world_.outcome.runsStarted;
    if (duplicate) ++world_.outcome.duplicateRuns;
    if (!lostBy.empty())
        ++world_.outcome.duplicatesAfterLockLost;
    else if (duplicate)
        ++world_.outcome.duplicatesAfterJobDone;
    emit(EventKind::RunStarted, self_.lane(),
         "run #" + std::to_string(world_.outcome.runsStarted) + (duplicate ? " (duplicate)" : ""));
    openInterval(world_, {self_.lane(), IntervalKind::JobRun, now(), 0, "job", "", fence, false});
    if (duplicate && !recording_.beats.empty()) {
        std::string text = " The job starts again: run #" +
                           std::to_string(world_.outcome.runsStarted) + " tonight, a duplicate. ";
        text += !lostBy.empty()
                    ? "Its cause is a lost lock: " + lostBy + "."
                    : "The job already ran tonight (" + doneBy +
                          " finished it) and no one holds the lock, so nothing stops " +
                          self_.name() +
                          ": a lock guards a running job, not a finished one. Only a record "
                          "keyed by the date (the fix's email key) can stop this duplicate.";
        facts_ += text;
        appendToNarration(text.substr(1));  // without its leading space
    }
}

void StepContext::runRefused(const std::string& why) {
    ++world_.outcome.runsRefused;
    emit(EventKind::RunRefused, self_.lane(), why);
}

void StepContext::endRun(RunState state) {
    if (InstanceRun* run = world_.run(self_.name())) run->state = state;
    closeInterval(world_, recording_, self_.lane(), IntervalKind::JobRun, now());
    closeInterval(world_, recording_, self_.lane(), IntervalKind::LeaseLapsed, now());
}

void StepContext::runCompleted() {
    ++world_.outcome.runsCompleted;
    endRun(RunState::Completed);
    emit(EventKind::RunCompleted, self_.lane(), "job done");
}

void StepContext::runAborted(const std::string& why) {
    ++world_.outcome.runsAborted;
    endRun(RunState::Aborted);
    emit(EventKind::RunAborted, self_.lane(), why);
}

}  // namespace lockscope::sim
