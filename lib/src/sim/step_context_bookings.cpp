// StepContext's bookings table (seat-hold): the confirmation after payment, counted by the
// database's own rule, whatever the Redis hold said.
#include "lockscope/sim/step_context.h"

namespace lockscope::sim {

bool StepContext::confirmBooking(const std::string& event, const std::string& seat) {
    BookingDatabase& db = world_.bookings;
    BookingDatabase::Result r = db.confirm(event, seat, self_.name());
    int e = emit(r.inserted ? EventKind::FencedWriteAccepted : EventKind::FencedWriteRejected,
                 world_.storeLane, "seat " + seat + (r.inserted ? " booked" : " refused"));
    recording_.events[e].command = db.insertText(event, seat, self_.name());
    const bool conditional = db.rule() == BookingDatabase::Rule::ConditionalUpdate;
    recording_.events[e].reply = conditional  ? (r.inserted ? "UPDATE 1" : "UPDATE 0")
                                 : r.inserted ? "INSERT 0 1"
                                              : "ERROR: duplicate key value violates unique "
                                                "constraint \"bookings_event_id_seat_id_key\"";
    std::string earlier;
    for (const auto& u : r.earlier) earlier += (earlier.empty() ? "" : ", ") + u;
    std::string text;
    if (r.inserted) {
        ++world_.outcome.bookingsConfirmed;
        text = conditional
                   ? "The conditional update sets seat " + seat + "'s sold_to to " + self_.name() +
                         " in the seats table."
                   : "The bookings table records seat " + seat + " for " + self_.name() + ".";
        if (!r.earlier.empty()) {
            ++world_.outcome.seatsSoldTwice;
            text += " It was already sold to " + earlier +
                    ": the seat is sold twice, and both buyers have paid.";
        }
    } else {
        ++world_.outcome.bookingsRefused;
        text = (conditional ? "The conditional update matches no row (sold_to is no longer NULL)"
                            : "The unique constraint on (event_id, seat_id) refuses it") +
               std::string(": seat ") + seat + " already belongs to " + earlier +
               ". The second confirmation fails cleanly; " + self_.name() +
               " gets a refund or another seat.";
    }
    beat(e, text);
    return r.inserted;
}

}  // namespace lockscope::sim
