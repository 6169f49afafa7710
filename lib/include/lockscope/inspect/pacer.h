#pragma once
// Caps the share of a server's time the inspector uses (--max-load 20%): after each busy
// period (a round trip, which bounds the server time it cost from above) it rests long
// enough that busy / (busy + rest) stays at or under the share.

#include <chrono>
#include <stop_token>
#include <string_view>

namespace lockscope::inspect {

class Pacer {
  public:
    // share in (0, 1]; 1 never rests. Throws InvalidArgumentError otherwise.
    explicit Pacer(double share = 1.0);

    double share() const { return share_; }
    bool active() const { return share_ < 1.0; }
    // The rest owed for a busy period: busy * (1 - share) / share.
    std::chrono::nanoseconds restFor(std::chrono::nanoseconds busy) const;
    // Sleeps restFor(busy), but not past `until` (a scan's deadline, so a long rest cannot
    // carry it past); returns early (false) when stop is requested.
    bool rest(std::chrono::nanoseconds busy, std::stop_token stop = {},
              std::chrono::steady_clock::time_point until =
                  std::chrono::steady_clock::time_point::max()) const;

    // "20%", "20 %", "0.2" -> 0.2. Throws InvalidArgumentError for anything else, 0, or > 100%.
    static double parseShare(std::string_view text);

  private:
    double share_;
};

}  // namespace lockscope::inspect
