#include "plain_lock_report_job.h"

#include <algorithm>

namespace lockscope::sim {

std::string otherRunsFacts(const World& world, const std::string& self) {
    std::string facts;
    for (const auto& run : world.runs) {
        if (run.actor == self || run.state != RunState::Running) continue;
        facts += " " + run.actor + "'s job is still running";
        const Holding* h = world.lastHoldingOf(run.actor);
        if (h && !h->current) facts += ", but its lock " + describeLoss(*h);
        facts += world.faults.pausedAt(run.actor, world.now) ? " (it is paused)." : ".";
    }
    return facts;
}

Message factsMessage(const std::string& facts) {
    return Message::literal(facts.empty() || facts.front() != ' ' ? facts : facts.substr(1));
}

PlainLockReportJob::PlainLockReportJob(std::string name, LaneId lane, PlainJobConfig config,
                                       std::vector<VirtualMs> triggers)
    : ClonableActor(std::move(name), lane),
      config_(std::move(config)),
      triggers_(std::move(triggers)) {}

VirtualMs PlainLockReportJob::chunkDuration(VirtualMs now) const {
    return now < config_.dbSlowUntil ? config_.slowChunk : config_.chunk;
}

void PlainLockReportJob::step(StepContext& context) {
    switch (phase_) {
        case Phase::Trigger:
            trigger(context);
            break;
        case Phase::Expire: {
            context.send(RedisCommand::expire(config_.key, config_.ttlSeconds));
            context.narrate(Message{"sim.report.sets-ttl", {name()}});
            startWork(context);
            break;
        }
        case Phase::Chunk:
            chunkDone(context);
            break;
        case Phase::Release:
            release(context);
            break;
    }
}

void PlainLockReportJob::trigger(StepContext& context) {
    const std::string& key = config_.key;
    std::string others = otherRunsFacts(context.world(), name());
    const bool pressed = std::find(runNow_.begin(), runNow_.end(), context.now()) != runNow_.end();
    const Message openerMessage{pressed ? "sim.report.run-now" : "sim.report.scheduler-fires",
                                {name()}};
    const std::string opener = renderEnglish(openerMessage);
    ++triggerIndex_;
    bool acquired;
    if (config_.setnxThenExpire) {
        acquired = context.send(RedisCommand::setNx(key, "1")).integer == 1;
    } else {
        acquired =
            context.send(RedisCommand::set(key, "1", true, TtlUnit::Seconds, config_.ttlSeconds))
                .isOk();
    }
    if (!others.empty() || (context.holding() && context.holding()->holder != name()))
        context.predict(opener + others + " What does " + name() + "'s " +
                            (config_.setnxThenExpire ? "SETNX" : "SET ... NX") + " return?",
                        acquired ? "It succeeds: the key was free." : "It is refused.");
    if (!acquired) {
        context.narrate(
            {openerMessage, factsMessage(others), Message{"sim.report.taken-skips", {name()}}});
        context.runRefused("lock taken");
        scheduleNextTrigger(context);
        return;
    }
    // What the other runs are doing is said by runStarted, with the duplicate's cause.
    context.narrate(openerMessage);
    context.runStarted();
    if (config_.setnxThenExpire) {
        phase_ = Phase::Expire;
        context.wakeAfter(config_.expireDelay);
        return;
    }
    startWork(context);
}

void PlainLockReportJob::startWork(StepContext& context) {
    context.openFile();
    chunk_ = 0;
    phase_ = Phase::Chunk;
    context.workFor(chunkDuration(context.now()));
}

void PlainLockReportJob::chunkDone(StepContext& context) {
    context.writeChunk(chunk_);
    if (++chunk_ < config_.chunks) {
        context.workFor(chunkDuration(context.now()));
        return;
    }
    context.closeFile();
    context.sendEmail();
    context.narrate(Message{"sim.report.done", {name()}});
    context.runCompleted();
    phase_ = Phase::Release;
    context.wakeAfter(0);
}

void PlainLockReportJob::release(StepContext& context) {
    const Holding* mine = context.lastHoldingOf(name());
    bool lost = mine && !mine->current;
    const Holding* other = context.holding();
    context.send(RedisCommand::del(config_.key));
    if (lost)
        context.predict(name() + "'s own lock " + describeLoss(*mine) + ". What does its DEL " +
                            config_.key + " delete?",
                        other ? other->holder + "'s lock: DEL removes whatever is there."
                              : "Nothing: the key is gone.");
    context.narrate(Message{"sim.report.plain-del", {name()}});
    scheduleNextTrigger(context);
}

void PlainLockReportJob::runNow(World& world, VirtualMs at) {
    // In time order among the triggers still to come: a press before the scheduler's own
    // trigger runs first (before, it queued behind it and never ran).
    const auto next = triggers_.begin() + static_cast<std::ptrdiff_t>(triggerIndex_);
    triggers_.insert(std::upper_bound(next, triggers_.end(), at), at);
    runNow_.push_back(at);
    // Busy with a run: scheduleNextTrigger picks it up when the run ends.
    if (phase_ != Phase::Trigger || (wake && *wake <= at)) return;
    wake = at;
    wakeSeq = ++world.seq;
}

void PlainLockReportJob::scheduleNextTrigger(StepContext& context) {
    phase_ = Phase::Trigger;
    if (triggerIndex_ < triggers_.size() && triggers_[triggerIndex_] >= context.now())
        context.wakeAfter(triggers_[triggerIndex_] - context.now());
    else
        context.stop();
}

}  // namespace lockscope::sim
