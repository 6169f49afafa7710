#include "get_then_del_client.h"

namespace lockscope::sim {

GetThenDelClient::GetThenDelClient(std::string name, LaneId lane, GetThenDelConfig config,
                                   std::string token)
    : ClonableActor(std::move(name), lane), config_(std::move(config)), token_(std::move(token)) {}

void GetThenDelClient::step(StepContext& context) {
    switch (phase_) {
        case Phase::Acquire:
            acquire(context);
            break;
        case Phase::Check:
            check(context);
            break;
        case Phase::Delete:
            remove(context);
            break;
        case Phase::Done:
            context.stop();
            break;
    }
}

void GetThenDelClient::acquire(StepContext& context) {
    const bool got =
        context.send(RedisCommand::set(config_.key, token_, true, TtlUnit::Millis, config_.ttlMs))
            .isOk();
    context.print(name() + ".acquire() -> " + (got ? "True" : "False"));
    if (!got || !config_.releases) {
        context.stop();
        return;
    }
    phase_ = Phase::Check;
    context.wakeAfter(config_.work);
}

void GetThenDelClient::check(StepContext& context) {
    if (config_.atomic) {
        const bool released = context.send(RedisCommand::release(config_.key, token_)).integer == 1;
        context.narrate(Message{"sim.gtd.atomic-release", {name()}});
        context.print(name() + ".release() -> " + (released ? "True" : "False"));
        phase_ = Phase::Done;
        context.stop();
        return;
    }
    CommandReply seen = context.send(RedisCommand::get(config_.key));
    const bool mine = seen.kind == CommandReply::Kind::Bulk && seen.bulk == token_;
    context.narrate(Message{"sim.gtd.get-first", {name()}});
    if (!mine) {
        context.print(name() + ".release() -> False");
        context.stop();
        return;
    }
    context.note(Message{"sim.gtd.sees-own-token", {name(), formatDuration(config_.gap)}});
    phase_ = Phase::Delete;
    context.wakeAfter(config_.gap);
}

void GetThenDelClient::remove(StepContext& context) {
    const Holding* now = context.holding();
    const std::string other = now && now->holder != name() ? now->holder : std::string();
    const int before = context.nextBeatIndex();
    const bool deleted = context.send(RedisCommand::del(config_.key)).integer == 1;
    context.predictAt(before,
                      name() + "'s GET saw its own token " + formatDuration(config_.gap) +
                          " ago. What does its DEL remove now?",
                      other.empty() ? "Its own lock, or nothing: no one else took it."
                                    : other +
                                          "'s lock: the GET's answer was already out of "
                                          "date, and DEL removes whatever is there.");
    context.narrate(Message{"sim.gtd.sends-del", {name()}});
    context.print(name() + ".release() -> " + (deleted ? "True" : "False"));
    phase_ = Phase::Done;
    context.stop();
}

}  // namespace lockscope::sim
