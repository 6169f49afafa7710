#include "inspector_operator.h"

#include "plain_lock_report_job.h"

namespace lockscope::sim {

namespace {

// The schedulers' status page: who is running the job now, and who finished it tonight.
struct JobState {
    std::string running;
    std::string completed;
};

JobState jobState(const World& world) {
    JobState state;
    for (const auto& run : world.runs) {
        if (run.state == RunState::Running)
            state.running += (state.running.empty() ? "" : ", ") + run.actor;
        if (run.state == RunState::Completed)
            state.completed += (state.completed.empty() ? "" : ", ") + run.actor;
    }
    return state;
}

}  // namespace

InspectorOperator::InspectorOperator(std::string name, LaneId lane, std::string key,
                                     VirtualMs releaseDelay, std::string rerunOn,
                                     VirtualMs rerunAfter)
    : ClonableActor(std::move(name), lane),
      key_(std::move(key)),
      releaseDelay_(releaseDelay),
      rerunOn_(std::move(rerunOn)),
      rerunAfter_(rerunAfter) {}

void InspectorOperator::step(StepContext& context) {
    if (phase_ == Phase::Inspect)
        inspect(context);
    else
        release(context);
}

void InspectorOperator::inspect(StepContext& context) {
    CommandReply value = context.send(RedisCommand::get(key_));
    context.narrate(Message{"sim.operator.opens", {}});
    CommandReply ttl = context.send(RedisCommand::pttl(key_));
    if (value.kind != CommandReply::Kind::Bulk) {
        context.narrate(Message{"sim.operator.key-gone", {}});
        runNowIfNeeded(context);
        return;
    }
    seen_ = value.bulk;
    const JobState job = jobState(context.world());
    const bool noTtl = ttl.integer == -1;
    orphan_ = noTtl && job.running.empty();
    context.predict("The inspector reads " + key_ + ". What does PTTL return, and why?",
                    noTtl ? "-1: the key has no TTL. Its SETNX ran but no EXPIRE followed (yet), "
                            "so nothing will expire it."
                          : "A positive TTL: the lock will expire by itself.");
    if (!noTtl) {
        context.narrate(Message{"sim.operator.has-ttl", {}});
        context.stop();
        return;
    }
    context.narrate(Message{"sim.operator.no-ttl", {}});
    if (!orphan_) {
        context.note("The inspector shows " + key_ +
                     " with no TTL, but the schedulers' status "
                     "says " +
                     job.running + " is running the job now: the lock may be " + job.running +
                     "'s, whose EXPIRE has not come yet. Not an orphan: the "
                     "operator leaves it.");
        context.stop();
        return;
    }
    context.note("The inspector flags " + key_ +
                 " as an orphan: it has no TTL, and no "
                 "instance is running the job (the schedulers' status) — its holder died "
                 "between SETNX and EXPIRE. Its value \"" +
                 seen_ +
                 "\" is the fixed value "
                 "every instance writes, so it tells nothing about who set it. Every later "
                 "run is refused until someone removes it.");
    phase_ = Phase::Release;
    context.wakeAfter(releaseDelay_);
}

void InspectorOperator::release(StepContext& context) {
    const JobState job = jobState(context.world());
    if (!job.running.empty()) {  // checked again: the decision is only as good as its facts
        context.note(Message{"sim.operator.does-not-delete", {job.running}});
        context.stop();
        return;
    }
    CommandReply r = context.send(RedisCommand::release(key_, seen_));
    context.narrate(Message{
        r.integer == 1 ? "sim.operator.releases" : "sim.operator.release-changed", {seen_}});
    runNowIfNeeded(context);
}

void InspectorOperator::runNowIfNeeded(StepContext& context) {
    context.stop();
    const JobState job = jobState(context.world());
    if (!job.completed.empty() || !job.running.empty()) {
        context.note(job.running.empty() ? Message{"sim.operator.already-ran", {job.completed}}
                                         : Message{"sim.operator.running-on", {job.running}});
        return;
    }
    auto* instance = dynamic_cast<PlainLockReportJob*>(context.world().actor(rerunOn_));
    if (!instance || instance->crashed) return;
    const VirtualMs at = context.now() + rerunAfter_;
    instance->runNow(context.world(), at);
    context.note(Message{"sim.operator.will-run-now", {rerunOn_, formatVirtualTime(at)}});
}

}  // namespace lockscope::sim
