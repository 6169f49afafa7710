#pragma once
// The ticketing service's bookings table (the seat-hold interview exercise), as a copyable
// model. Without the fix it is a plain INSERT: the application trusted the Redis hold, so a
// second booking of the same seat goes in. With the fix the database is the authority: a
// unique constraint on (event_id, seat_id) refuses the second confirmation cleanly.

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace lockscope::sim {

class BookingDatabase {
  public:
    struct Result {
        bool inserted = false;
        std::vector<std::string> earlier;  // users already booked on this seat
    };

    void setUniqueSeat(bool unique) { uniqueSeat_ = unique; }
    bool uniqueSeat() const { return uniqueSeat_; }

    // INSERT INTO bookings (event_id, seat_id, user_id) VALUES (...).
    Result confirm(const std::string& event, const std::string& seat, const std::string& user);
    std::vector<std::string> bookingsOf(const std::string& event, const std::string& seat) const;
    // The SQL the confirmation runs, for the transcript.
    std::string insertText(const std::string& event, const std::string& seat,
                           const std::string& user) const;

  private:
    bool uniqueSeat_ = false;
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> rows_;
};

}  // namespace lockscope::sim
