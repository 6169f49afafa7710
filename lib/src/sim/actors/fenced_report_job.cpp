#include "fenced_report_job.h"

#include "plain_lock_report_job.h"

namespace lockscope::sim {

FencedReportJob::FencedReportJob(std::string name, LaneId lane, FencedJobConfig config,
                                 std::string token)
    : ClonableActor(std::move(name), lane), config_(std::move(config)), token_(std::move(token)) {}

VirtualMs FencedReportJob::chunkDuration(VirtualMs now) const {
    return now < config_.dbSlowUntil ? config_.slowChunk : config_.chunk;
}

bool FencedReportJob::lostMyLock(const StepContext& context) const {
    const Holding* mine = context.lastHoldingOf(name());
    return mine && !mine->current;
}

void FencedReportJob::step(StepContext& context) {
    switch (phase_) {
        case Phase::Trigger:
            trigger(context);
            break;
        case Phase::Extend:
            extend(context);
            break;
        case Phase::Write:
            write(context);
            break;
        case Phase::Save:
            save(context);
            break;
        case Phase::Email:
            context.sendEmailOnce();
            context.runCompleted();
            phase_ = Phase::Release;
            context.wakeAfter(0);
            break;
        case Phase::Release: {
            bool lost = lostMyLock(context);
            CommandReply r = context.send(RedisCommand::release(config_.key, token_));
            if (lost)
                context.predict(
                    "Can " + name() + "'s release delete the lock now?",
                    r.integer == 1 ? "Yes." : "No: the release script compares tokens.");
            context.narrate(Message{"sim.report.release-script", {name()}});
            context.stop();
            break;
        }
    }
}

void FencedReportJob::trigger(StepContext& context) {
    std::string others = otherRunsFacts(context.world(), name());
    bool contended = !others.empty() || context.holding();
    CommandReply r =
        context.send(RedisCommand::acquire(config_.key, config_.fenceKey, token_, config_.ttlMs));
    const Message opener{"sim.report.acquire-script", {name()}};
    if (contended)
        context.predict(others.empty() ? "Does " + name() + " get the lock?"
                                       : others.substr(1) + " Does " + name() + " get the lock?",
                        r.integer > 0 ? "Yes, with fencing token " + std::to_string(r.integer) + "."
                                      : "No: the script returns 0.");
    if (r.integer == 0) {
        context.narrate({opener, factsMessage(others), Message{"sim.report.skips", {name()}}});
        context.runRefused("lock taken");
        context.stop();
        return;
    }
    fence_ = r.integer;
    context.narrate({opener, factsMessage(others)});
    context.runStarted(fence_);
    context.openFile();
    chunk_ = 0;
    phase_ = Phase::Extend;
    context.workFor(chunkDuration(context.now()));
}

void FencedReportJob::extend(StepContext& context) {
    bool lost = lostMyLock(context);
    CommandReply r = context.send(RedisCommand::extend(config_.key, token_, config_.ttlMs));
    if (lost)
        context.predict(name() + " built chunk " + std::to_string(chunk_) +
                            " and renews before writing it. Does lock.extend() succeed?",
                        r.integer == 1 ? "Yes." : "No: the lock is gone, so the job must stop.");
    if (r.integer == 0) {
        context.narrate(Message{"sim.report.extend-fails", {name(), std::to_string(chunk_)}});
        context.runAborted("lock lost");
        context.closeFile();
        phase_ = Phase::Release;
        context.wakeAfter(0);
        return;
    }
    context.narrate(Message{"sim.report.renews", {name(), std::to_string(chunk_)}});
    phase_ = Phase::Write;
    context.wakeAfter(0);
}

void FencedReportJob::write(StepContext& context) {
    context.writeChunk(chunk_);
    if (++chunk_ < config_.chunks) {
        phase_ = Phase::Extend;
        context.workFor(chunkDuration(context.now()));
        return;
    }
    context.closeFile();
    phase_ = Phase::Save;
    context.wakeAfter(config_.saveDelay);
}

void FencedReportJob::save(StepContext& context) {
    bool lost = lostMyLock(context);
    std::int64_t last = context.world().store.lastFence(context.world().reportResource);
    bool accepted = context.fencedSave("report by " + name(), fence_);
    if (lost)
        context.predict(name() +
                            " no longer holds the lock but does not know it. It saves with "
                            "fence " +
                            std::to_string(fence_) +
                            (last ? "; the store's last fence is " + std::to_string(last) : "") +
                            ". Is the write accepted?",
                        accepted ? "Yes: no newer holder has written yet."
                                 : "No: the store has seen a higher fence.");
    context.narrate(Message{"sim.report.saves", {name(), std::to_string(fence_)}});
    phase_ = Phase::Email;
    context.wakeAfter(0);
}

}  // namespace lockscope::sim
