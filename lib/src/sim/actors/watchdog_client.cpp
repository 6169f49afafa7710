#include "watchdog_client.h"

#include <algorithm>

namespace lockscope::sim {

WatchdogClient::WatchdogClient(std::string name, LaneId lane, WatchdogClientConfig config,
                               std::string token)
    : ClonableActor(std::move(name), lane), config_(std::move(config)), token_(std::move(token)) {}

void WatchdogClient::step(StepContext& context) {
    if (!holding_) {
        acquire(context);
        return;
    }
    // Both threads were due while the process was frozen: the job's write was already on its
    // way when the pause began, so it lands before the watchdog runs again.
    if (context.now() >= jobEnds_) {
        finish(context);
        return;
    }
    renew(context);
}

void WatchdogClient::acquire(StepContext& context) {
    const CommandReply r =
        context.send(RedisCommand::acquire(config_.key, config_.fenceKey, token_, config_.leaseMs));
    if (r.integer <= 0) {
        context.lockAttemptRefused();
        const bool retries = config_.retryEvery > 0;
        context.narrate(
            name() + " asks for the lock and is refused" +
            (retries ? ": it tries again in " + formatDuration(config_.retryEvery) + "." : "."));
        if (retries)
            context.wakeAfter(config_.retryEvery);
        else
            context.stop();
        return;
    }
    holding_ = true;
    fence_ = r.integer;
    jobEnds_ = context.now() + config_.job;
    nextRenewal_ = context.now() + config_.renewEvery;
    context.believeHeld(config_.key, context.now() + config_.leaseMs);
    context.narrate(name() + " takes the lock with a " + formatDuration(config_.leaseMs) +
                    " lease (fencing token " + std::to_string(fence_) + ") for a job of " +
                    formatDuration(config_.job) +
                    (config_.renewEvery > 0 ? "; its watchdog will extend the lease every " +
                                                  formatDuration(config_.renewEvery) + "."
                                            : ", with no watchdog: the lease is all it has."));
    sleepUntilNextDue(context);
}

void WatchdogClient::renew(StepContext& context) {
    const bool extended =
        context.send(RedisCommand::extend(config_.key, token_, config_.leaseMs)).integer == 1;
    if (extended) {
        context.renewBelief(config_.key, context.now() + config_.leaseMs);
        context.narrate(name() + "'s watchdog extends the lease: " +
                        formatDuration(config_.leaseMs) + " from now.");
        nextRenewal_ = context.now() + config_.renewEvery;
        sleepUntilNextDue(context);
        return;
    }
    // Our library's rule (DESIGN.md): a failed renewal is reported and cancels the work.
    context.narrate(name() + "'s watchdog finds the lock no longer " + name() +
                    "'s: it reports the loss and cancels the job.");
    context.stopBelieving(config_.key);
    context.stop();
}

void WatchdogClient::finish(StepContext& context) {
    const std::string body = "report by " + name();
    if (config_.fenced)
        context.fencedSave(body, fence_);
    else
        context.plainSave(body);
    context.narrate(name() + "'s job is done and writes its report.");
    context.send(RedisCommand::release(config_.key, token_));
    context.narrate(name() + " releases the lock.");
    context.stopBelieving(config_.key);
    context.stop();
}

void WatchdogClient::sleepUntilNextDue(StepContext& context) {
    const VirtualMs due = config_.renewEvery > 0 ? std::min(jobEnds_, nextRenewal_) : jobEnds_;
    context.wakeAfter(due - context.now());
}

}  // namespace lockscope::sim
