// seat-hold: the guide's interview exercise. Seat holds live in Redis (SET NX PX 600000)
// while buyers pay; the primary fails over in a busy sale; holds that had not reached the
// replica are lost, and other buyers take the same seats. fix=1 makes the database the
// authority: a unique constraint on (event_id, seat_id) refuses the second confirmation.
#include "lockscope/sim/story_measures.h"
#include "replicated_setup.h"
#include "scenario_catalog.h"
#include "sim/actors/seat_buyer.h"
#include "sim/narrator.h"

namespace lockscope::sim {

namespace {

std::string seatName(int index) {
    return "A" + std::to_string(index + 1);
}

// The guide's last advice for seat-hold: a fencing token derived from the booking version,
// if holds are checked elsewhere. Why it is right, what else is, and what is not.
constexpr const char* kTokenNote =
    " If holds are checked elsewhere, the guide adds a fencing token derived from the booking "
    "version: right when the database increments that version atomically as it grants the "
    "hold, so every later holder gets a higher number (an atomically incremented counter, "
    "the Redlock stories' fencing=1, is right for the same reason). The trap is a number read "
    "from the row and written back later as version + 1: two holders can read the same "
    "version and share it (the Redlock stories' fencing=2).";

// The conclusion, from what the rules counted: which cause let seats be held twice.
std::string concludeHolds(const World& world, bool fix, const SeatBuyerConfig& config) {
    const OutcomeSummary& o = world.outcome;
    std::string causes;
    if (o.overlapsAfterFailover > 0)
        causes += std::to_string(o.overlapsAfterFailover) +
                  " hold(s) were lost in the failover (the promoted replica never had them)";
    if (o.overlapsAfterLeaseExpired > 0)
        causes += std::string(causes.empty() ? "" : "; ") +
                  std::to_string(o.overlapsAfterLeaseExpired) + " hold(s) ran out (PX " +
                  std::to_string(config.holdMs) + ") while their buyer was still paying (" +
                  formatDuration(config.pay) + "), failover or not";
    if (causes.empty())
        return fix ? "No seat was held twice this time; the database would have refused a "
                     "second confirmation anyway."
                   : "No seat was held twice this time: nothing was lost in the failover and no "
                     "hold ran out while its buyer paid. Redis is still the only guard.";
    return "Seats were held twice because " + causes + ". " +
           (fix ? "Redis still gives the fast, user-facing hold, but PostgreSQL is the "
                  "authority: each seat has one booking, and a second confirmation fails "
                  "cleanly."
                : "Redis was the only guard of a correctness property it cannot keep. Run "
                  "again with fix=1: the database becomes the authority.");
}

std::string conclude(const World& world, bool fix, const SeatBuyerConfig& config) {
    return concludeHolds(world, fix, config) + kTokenNote;
}

void build(World& world, Recording& recording, const ScenarioParams& params) {
    const int buyers = static_cast<int>(params.get("buyers"));
    const int seats = static_cast<int>(params.get("seats"));
    const VirtualMs arrival = params.get("arrival_ms");
    const auto rule = static_cast<BookingDatabase::Rule>(params.get("fix"));
    const bool fix = rule != BookingDatabase::Rule::TrustTheHold;
    std::vector<LaneId> lanes;
    lanes.reserve(static_cast<std::size_t>(buyers));
    for (int i = 0; i < buyers; ++i)
        lanes.push_back(addLane(recording, LaneKind::Instance, "u" + std::to_string(i + 1),
                                "buyer of seat " + seatName(i % seats)));
    SeatBuyerConfig config;
    config.holdMs = params.get("hold_ms");
    config.pay = params.get("pay_ms");
    ReplicaSetSpec spec;
    spec.key = "seat:{" + config.event + "}:" + seatName(0);
    setUpReplicaSet(world, recording, params, spec);
    // The key lanes draw A1's key; every other seat's holds are recorded on its buyers' lanes.
    for (int seat = 1; seat < seats; ++seat)
        world.heldKeys.push_back("seat:{" + config.event + "}:" + seatName(seat));
    world.bookings.setRule(rule);
    world.storeLane = addLane(recording, LaneKind::FencedStore, "bookings",
                              rule == BookingDatabase::Rule::UniqueConstraint
                                  ? "PostgreSQL, UNIQUE (event_id, seat_id)"
                              : rule == BookingDatabase::Rule::ConditionalUpdate
                                  ? "PostgreSQL, UPDATE ... WHERE sold_to IS NULL"
                                  : "PostgreSQL, no constraint");

    std::vector<Narrator::Line> lines = {
        {0,
         "The guide's interview exercise: a ticketing service holds a seat with SET "
         "seat:{event}:{seat} <userId> NX PX " +
             std::to_string(config.holdMs) +
             " while the user pays, and confirms the booking in PostgreSQL after payment. " +
             std::to_string(buyers) + " buyers arrive " + formatDuration(arrival) + " apart for " +
             std::to_string(seats) + " seats; r2 replicates r1 " + formatDuration(spec.lag) +
             " behind, and r1 fails over at " + formatVirtualTime(spec.failoverAt) + "." +
             (rule == BookingDatabase::Rule::UniqueConstraint
                  ? " The fix is in place: the bookings table has a unique constraint on "
                    "(event_id, seat_id), so the database, not Redis, decides who gets a seat."
              : rule == BookingDatabase::Rule::ConditionalUpdate
                  ? " The fix is in place: a confirmation is a conditional update of the "
                    "seat's row (WHERE sold_to IS NULL), so the database, not Redis, decides "
                    "who gets a seat."
                  : " The bookings table trusts the Redis hold: it has no constraint.") +
             " The hold is a lock for efficiency (fewer buyers paying for a taken seat); "
             "selling each seat once is correctness, which the database must enforce."},
    };
    Narrator::Line closing{(buyers - 1) * arrival + config.pay + 1, {}};
    closing.compose = [fix, config](const World& world) { return conclude(world, fix, config); };
    lines.push_back(closing);
    addActor(world, std::make_unique<Narrator>(world.node(0).keyLane, lines), 0);
    for (int i = 0; i < buyers; ++i) {
        SeatBuyerConfig mine = config;
        mine.seat = seatName(i % seats);
        addActor(world, std::make_unique<SeatBuyer>("u" + std::to_string(i + 1), lanes[i], mine),
                 i * arrival);
    }
}

}  // namespace

Scenario seatHoldScenario() {
    Scenario s;
    s.name = "seat-hold";
    s.title =
        "The seat-hold interview exercise: a failover sells seats twice; the database fixes it";
    s.summary =
        "Buyers hold seats with SET seat:{event}:{seat} <userId> NX PX 600000 while paying. "
        "The Redis primary fails over in a busy sale, and holds that had not reached the "
        "replica may be lost. With fix=1 PostgreSQL is the authority (a unique constraint on "
        "(event_id, seat_id)), with fix=2 a conditional update (WHERE sold_to IS NULL). The "
        "verdict after the run counts the seats sold twice and the confirmations refused.";
    s.params = {
        {"fix",
         "1: the bookings table has UNIQUE (event_id, seat_id); 2: a conditional update that "
         "succeeds only while the seat is free",
         0, 0, 2},
        {"buyers", "buyers in the sale, one arriving every arrival_ms", 6, 1, 12},
        {"seats", "seats they want (buyer i wants seat i mod seats)", 3, 1, 12},
        {"arrival_ms", "time between two buyers' holds", 20, 0, 60000},
    };
    for (ParamSpec& p : replicaSetParams(50, 30, "when r1 fails and r2 is promoted"))
        s.params.push_back(std::move(p));
    s.params.push_back({"pay_ms", "how long a payment takes", 30000, 0, 3600000});
    s.params.push_back({"hold_ms", "TTL of a seat hold (PX)", 600000, 1, 86400000});
    s.liveNotes =
        "Live: two private redis-servers; r2 is a real replica of r1 (REPLICAOF) behind a gate "
        "that holds the replication stream while the model has a hold in flight. The failover "
        "is real: r1's link is cut, dropping what it held, and r2 runs REPLICAOF NO ONE. The "
        "bookings table stays the model's: there is no PostgreSQL here.";
    s.measures = {measure::seatsSoldTwice(), measure::overlappingHolds(),
                  measure::bookingsRefused()};
    s.fixedBy = "fix=1";
    s.serverFaults = replicaSetFaults();
    s.build = build;
    return s;
}

}  // namespace lockscope::sim
