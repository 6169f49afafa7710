#pragma once
// One buyer of the seat-hold interview exercise:
//     SET seat:{event}:{seat} <userId> NX PX 600000     hold the seat while paying
//     ... payment ...
//     INSERT INTO bookings (event_id, seat_id, user_id)  confirm in the database
//     release the hold (compare-and-delete)
// A refused hold means "seat taken": the buyer leaves. Whether the confirmation can sell
// a seat twice is the database's rule (BookingDatabase), not the buyer's.

#include "lockscope/sim/actor.h"
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

struct SeatBuyerConfig {
    std::string event = "gig";
    std::string seat = "A1";
    std::int64_t holdMs = 600000;
    VirtualMs pay = 30000;
};

class SeatBuyer final : public ClonableActor<SeatBuyer> {
  public:
    SeatBuyer(std::string name, LaneId lane, SeatBuyerConfig config);
    void step(StepContext& context) override;

    std::string key() const { return "seat:{" + config_.event + "}:" + config_.seat; }

  private:
    enum class Phase { Hold, Confirm, Release };
    void hold(StepContext& context);
    void confirm(StepContext& context);

    SeatBuyerConfig config_;
    Phase phase_ = Phase::Hold;
    int node_ = 0;
    std::string whyHeldTwice_;  // what let this buyer hold a seat another still held
};

}  // namespace lockscope::sim
