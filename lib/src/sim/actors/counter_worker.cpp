#include "counter_worker.h"

#include <charconv>

namespace lockscope::sim {

namespace {

std::int64_t numberIn(const CommandReply& r) {
    std::int64_t n = 0;
    if (r.kind == CommandReply::Kind::Bulk)
        std::from_chars(r.bulk.data(), r.bulk.data() + r.bulk.size(), n);
    return n;
}

}  // namespace

CounterWorker::CounterWorker(std::string name, LaneId lane, CounterConfig config, std::string token)
    : ClonableActor(std::move(name), lane), config_(std::move(config)), token_(std::move(token)) {}

void CounterWorker::step(StepContext& context) {
    switch (phase_) {
        case Phase::Add:
            add(context);
            break;
        case Phase::Write:
            writeBack(context);
            break;
        case Phase::Check: {
            CommandReply r = context.send(RedisCommand::get(config_.key));
            context.narrate(Message{"sim.counter.read-at-end", {}});
            context.counterChecked(config_.expected, numberIn(r));
            context.stop();
            break;
        }
    }
}

void CounterWorker::add(StepContext& context) {
    switch (config_.mode) {
        case CounterMode::Incr:
            context.send(RedisCommand::incr(config_.key));
            context.narrate(Message{"sim.counter.incr", {name()}});
            context.updateMade(1);
            ++done_;
            next(context);
            return;
        case CounterMode::LockThenUpdate: {
            ++sent_;  // a refused SET NX is part of the price of this update
            const bool got = context
                                 .send(RedisCommand::set(config_.lockKey, token_, true,
                                                         TtlUnit::Millis, config_.lockTtl))
                                 .isOk();
            if (!got) {
                context.narrate(Message{"sim.counter.waits", {name()}});
                context.wakeAfter(config_.retry);
                return;
            }
            // The worker counts on the lock until its release; taking it while another
            // still does is an overlapping hold, counted by its cause.
            context.believeHeld(config_.lockKey, context.now() + config_.lockTtl, 0);
            context.narrate(Message{"sim.counter.takes-lock", {name()}});
            break;
        }
        case CounterMode::ReadThenWrite:
            break;
    }
    read_ = numberIn(context.send(RedisCommand::get(config_.key)));
    ++sent_;
    context.narrate(
        Message{"sim.counter.reads", {name(), std::to_string(read_), std::to_string(read_ + 1)}});
    phase_ = Phase::Write;
    context.wakeAfter(config_.think);
}

void CounterWorker::writeBack(StepContext& context) {
    context.send(
        RedisCommand::set(config_.key, std::to_string(read_ + 1), false, TtlUnit::None, 0));
    context.counterWrittenBack();
    context.narrate(Message{"sim.counter.writes-back", {name(), std::to_string(read_ + 1)}});
    ++sent_;
    if (config_.mode == CounterMode::LockThenUpdate) {
        context.send(RedisCommand::release(config_.lockKey, token_));
        context.narrate(Message{"sim.counter.releases", {name()}});
        context.stopBelieving(config_.lockKey);
        ++sent_;
    }
    context.updateMade(sent_);
    sent_ = 0;
    ++done_;
    phase_ = Phase::Add;
    next(context);
}

void CounterWorker::next(StepContext& context) {
    if (done_ < config_.adds) {
        context.wakeAfter(config_.gap);
        return;
    }
    if (config_.checkAt > 0) {
        phase_ = Phase::Check;
        context.wakeAfter(std::max<VirtualMs>(0, config_.checkAt - context.now()));
        return;
    }
    context.stop();
}

}  // namespace lockscope::sim
