#pragma once
// The ticketing service's bookings table (the seat-hold interview exercise), as a copyable
// model. Without the fix it is a plain INSERT: the application trusted the Redis hold, so a
// second booking of the same seat goes in. With the fix the database is the authority: a
// unique constraint on (event_id, seat_id) refuses the second confirmation cleanly, or a
// conditional update of the seat's row succeeds only while the seat is free.

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

    // How a confirmation is written: a plain INSERT that trusts the hold, an INSERT under
    // UNIQUE (event_id, seat_id), or UPDATE seats ... WHERE sold_to IS NULL.
    enum class Rule { TrustTheHold, UniqueConstraint, ConditionalUpdate };
    void setRule(Rule rule) { rule_ = rule; }
    Rule rule() const { return rule_; }
    bool uniqueSeat() const { return rule_ != Rule::TrustTheHold; }

    // INSERT INTO bookings (event_id, seat_id, user_id) VALUES (...).
    Result confirm(const std::string& event, const std::string& seat, const std::string& user);
    std::vector<std::string> bookingsOf(const std::string& event, const std::string& seat) const;
    // The SQL the confirmation runs, for the transcript.
    std::string insertText(const std::string& event, const std::string& seat,
                           const std::string& user) const;

  private:
    Rule rule_ = Rule::TrustTheHold;
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> rows_;
};

}  // namespace lockscope::sim
