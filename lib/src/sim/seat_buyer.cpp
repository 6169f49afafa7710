#include "seat_buyer.h"

namespace lockscope::sim {

namespace {

// The guide's answer to the interview exercise, shown when the story reaches it.
const char* const kHow =
    "The seat holds were written to the old primary and acknowledged, but replication is "
    "asynchronous; the promoted replica had not received some of them, so other users could "
    "acquire the same seats with SET NX and both later paid. Redis is acting as the only "
    "guard for a correctness property, which it cannot guarantee across failover.";
const char* const kFix =
    "Keep Redis for the fast, user-facing hold, but make PostgreSQL authoritative: a unique "
    "constraint on (event_id, seat_id) in the bookings table, or a conditional update that "
    "only succeeds while the seat is free, so the second confirmation fails cleanly and that "
    "user gets a refund or a new seat. WAIT 1 50 after taking a hold reduces the window but "
    "does not eliminate it.";

}  // namespace

SeatBuyer::SeatBuyer(std::string name, LaneId lane, SeatBuyerConfig config)
    : ClonableActor(std::move(name), lane), config_(std::move(config)) {}

void SeatBuyer::step(StepContext& context) {
    switch (phase_) {
        case Phase::Hold:
            hold(context);
            break;
        case Phase::Confirm:
            confirm(context);
            break;
        case Phase::Release: {
            RedisCommand release = RedisCommand::release(key(), name());
            release.node = node_;
            context.send(release);
            context.narrate(name() + " drops the hold on " + context.world().node(node_).name +
                            ".");
            context.stop();
            break;
        }
    }
}

void SeatBuyer::hold(StepContext& context) {
    node_ = context.world().primary;
    RedisCommand set = RedisCommand::set(key(), name(), true, TtlUnit::Millis, config_.holdMs);
    set.node = node_;
    CommandReply r = context.send(set);
    const std::string& primary = context.world().node(node_).name;
    if (!r.isOk()) {
        context.narrate(name() + " wants seat " + config_.seat + " and asks " + primary +
                        " for a hold: the seat is taken, so " + name() + " looks elsewhere.");
        context.stop();
        return;
    }
    context.narrate(name() + " holds seat " + config_.seat + " on " + primary + " for " +
                    formatDuration(config_.holdMs) + " and starts paying.");
    context.believeHeld(key());
    phase_ = Phase::Confirm;
    context.wakeAfter(config_.pay);
}

void SeatBuyer::confirm(StepContext& context) {
    const auto before = context.world().bookings.bookingsOf(config_.event, config_.seat);
    bool inserted = context.confirmBooking(config_.event, config_.seat);
    context.narrate(name() + " has paid and confirms the booking in PostgreSQL.");
    if (!before.empty()) {
        std::string question =
            "A ticketing service holds a seat with SET seat:{event}:{seat} <userId> NX PX "
            "600000 while the user pays, and confirms the booking in PostgreSQL after payment. "
            "The Redis primary failed over during this busy sale. " +
            name() + " confirms seat " + config_.seat + ", which " + before.front() +
            " already bought. What happens, and why?";
        context.predict(question, inserted ? std::string("Seat ") + config_.seat +
                                                 " is sold twice. " + kHow + " The fix: " + kFix
                                           : std::string("The database refuses it. ") + kFix);
    }
    context.stopBelieving(key());
    phase_ = Phase::Release;
    context.wakeAfter(0);
}

}  // namespace lockscope::sim
