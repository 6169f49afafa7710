#include "expiry_race_client.h"

namespace lockscope::sim {

ExpiryRaceClient::ExpiryRaceClient(std::string name, LaneId lane, std::string key,
                                   std::string fenceKey, std::string token, std::int64_t ttlMs,
                                   std::vector<Scheduled> plan)
    : ClonableActor(std::move(name), lane),
      key_(std::move(key)),
      fenceKey_(std::move(fenceKey)),
      token_(std::move(token)),
      ttlMs_(ttlMs),
      plan_(std::move(plan)) {}

std::int64_t ExpiryRaceClient::acquire(StepContext& context) {
    CommandReply r = context.send(RedisCommand::acquire(key_, fenceKey_, token_, ttlMs_));
    if (r.integer > 0) fence_ = r.integer;
    return r.integer;
}

void ExpiryRaceClient::step(StepContext& context) {
    const Scheduled& now = plan_[next_++];
    const Holding* held = context.holding();
    std::string state =
        held ? held->holder + " holds the lock (" + describePttl(context.pttl()) + ")"
             : "no one holds the lock";
    static const char* code[] = {"print(%.acquire(), %.fence)", "print(%.acquire())",
                                 "print(%.extend(), %.release())",
                                 "print(r.get(%.key) == %.token)"};
    std::string statement = code[static_cast<int>(now.action)];
    for (auto at = statement.find('%'); at != std::string::npos; at = statement.find('%'))
        statement.replace(at, 1, name());
    int firstBeat = context.nextBeatIndex();
    std::string line;
    switch (now.action) {
        case Action::AcquirePrintFence:
        case Action::AcquirePrint: {
            std::int64_t got = acquire(context);
            context.narrate(Message{"sim.race.acquire", {name()}});
            if (now.action == Action::AcquirePrintFence)
                line = pyBool(got > 0) + " " + (fence_ ? std::to_string(fence_) : "None");
            else
                line = pyBool(got > 0);
            break;
        }
        case Action::ExtendReleasePrint: {
            bool extended = context.send(RedisCommand::extend(key_, token_, ttlMs_)).integer == 1;
            context.narrate(Message{"sim.race.extend", {name()}});
            bool released = context.send(RedisCommand::release(key_, token_)).integer == 1;
            context.narrate(Message{"sim.race.release", {name()}});
            line = pyBool(extended) + " " + pyBool(released);
            break;
        }
        case Action::CheckHoldsPrint: {
            CommandReply r = context.send(RedisCommand::get(key_));
            context.narrate(Message{"sim.race.holds", {name()}});
            line = pyBool(r.kind == CommandReply::Kind::Bulk && r.bulk == token_);
            break;
        }
    }
    context.predictAt(firstBeat, "Now " + state + ". What does " + statement + " print?", line);
    context.print(line);
    if (next_ < plan_.size())
        context.wakeAfter(plan_[next_].at - context.now());
    else
        context.stop();
}

}  // namespace lockscope::sim
