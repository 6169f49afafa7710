#include "lockscope/sim/booking_database.h"

namespace lockscope::sim {

BookingDatabase::Result BookingDatabase::confirm(const std::string& event, const std::string& seat,
                                                 const std::string& user) {
    Result result;
    auto& users = rows_[{event, seat}];
    result.earlier = users;
    // The constraint is what makes the table the authority: one row per (event, seat).
    if (uniqueSeat() && !users.empty()) return result;
    users.push_back(user);
    result.inserted = true;
    return result;
}

std::vector<std::string> BookingDatabase::bookingsOf(const std::string& event,
                                                     const std::string& seat) const {
    auto it = rows_.find({event, seat});
    return it == rows_.end() ? std::vector<std::string>{} : it->second;
}

std::string BookingDatabase::insertText(const std::string& event, const std::string& seat,
                                        const std::string& user) const {
    if (rule_ == Rule::ConditionalUpdate)
        return "UPDATE seats SET sold_to = '" + user + "' WHERE event_id = '" + event +
               "' AND seat_id = '" + seat + "' AND sold_to IS NULL";
    return "INSERT INTO bookings (event_id, seat_id, user_id) VALUES ('" + event + "', '" + seat +
           "', '" + user + "')";
}

}  // namespace lockscope::sim
