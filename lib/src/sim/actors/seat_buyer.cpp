#include "seat_buyer.h"

namespace lockscope::sim {

namespace {

// The guide's fix for the interview exercise, shown when the story reaches a confirmation.
const char* const kFix =
    "Keep Redis for the fast, user-facing hold, but make PostgreSQL authoritative: a unique "
    "constraint on (event_id, seat_id) in the bookings table, or a conditional update that "
    "only succeeds while the seat is free, so the second confirmation fails cleanly and that "
    "user gets a refund or a new seat.";

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
            // The hold is dropped where the primary is now (a failover may have moved it).
            RedisCommand release = RedisCommand::release(key(), name());
            release.node = context.world().primary;
            context.send(release);
            context.narrate(
                Message{"sim.seat.drops-hold", {name(), context.world().node(release.node).name}});
            context.stop();
            break;
        }
    }
}

void SeatBuyer::hold(StepContext& context) {
    node_ = context.world().primary;
    RedisCommand set = RedisCommand::set(key(), name(), true, TtlUnit::Millis, config_.holdMs);
    set.node = node_;
    const std::optional<OverlapCause> overlap = context.whyAlsoHeld(key());
    CommandReply r = context.send(set);
    const std::string& primary = context.world().node(node_).name;
    if (!r.isOk()) {
        context.narrate(Message{"sim.seat.taken", {name(), config_.seat, primary}});
        context.lockAttemptRefused();
        context.stop();
        return;
    }
    if (overlap) whyHeldTwice_ = overlap->explanation;
    context.narrate(
        Message{"sim.seat.holds", {name(), config_.seat, primary, formatDuration(config_.holdMs)}});
    context.believeHeld(key(), context.now() + config_.holdMs, node_);
    phase_ = Phase::Confirm;
    context.wakeAfter(config_.pay);
}

void SeatBuyer::confirm(StepContext& context) {
    const auto before = context.world().bookings.bookingsOf(config_.event, config_.seat);
    bool inserted = context.confirmBooking(config_.event, config_.seat);
    context.narrate(Message{"sim.seat.confirms", {name()}});
    if (!before.empty()) {
        const bool failedOver = context.world().primary != 0;
        std::string question =
            "A ticketing service holds a seat with SET seat:{event}:{seat} <userId> NX PX " +
            std::to_string(config_.holdMs) +
            " while the user pays, and confirms the booking in PostgreSQL after payment." +
            (failedOver ? " The Redis primary failed over during this busy sale." : "") + " " +
            name() + " confirms seat " + config_.seat + ", which " + before.front() +
            " already bought. What happens, and why?";
        std::string why = whyHeldTwice_.empty()
                              ? std::string()
                              : " " + name() + " could hold the seat because " + whyHeldTwice_ +
                                    " Redis was the only guard of a correctness property it "
                                    "cannot keep.";
        context.predict(question, inserted
                                      ? std::string("Seat ") + config_.seat + " is sold twice." +
                                            why + " The fix: " + kFix
                                      : std::string("The database refuses it.") + why + " " + kFix);
    }
    context.stopBelieving(key());
    phase_ = Phase::Release;
    context.wakeAfter(0);
}

}  // namespace lockscope::sim
