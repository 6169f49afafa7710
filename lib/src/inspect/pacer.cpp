#include "lockscope/inspect/pacer.h"

#include <charconv>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <string>

#include "lockscope/errors.h"

namespace lockscope::inspect {

Pacer::Pacer(double share) : share_(share) {
    if (!(share > 0.0 && share <= 1.0))
        throw InvalidArgumentError("the load share must be above 0% and at most 100%");
}

std::chrono::nanoseconds Pacer::restFor(std::chrono::nanoseconds busy) const {
    if (!active() || busy.count() <= 0) return std::chrono::nanoseconds(0);
    return std::chrono::nanoseconds(
        static_cast<std::int64_t>(busy.count() * (1.0 - share_) / share_));
}

bool Pacer::rest(std::chrono::nanoseconds busy, std::stop_token stop,
                 std::chrono::steady_clock::time_point until) const {
    auto wait = restFor(busy);
    if (wait.count() <= 0) return !stop.stop_requested();
    const auto now = std::chrono::steady_clock::now();
    const auto end = until - now < wait ? until : now + wait;  // no overflow near max()
    std::mutex m;
    std::condition_variable_any cv;
    std::unique_lock lock(m);
    cv.wait_until(lock, stop, end, [] { return false; });
    return !stop.stop_requested();
}

double Pacer::parseShare(std::string_view text) {
    std::string_view t = text;
    while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    bool percent = t.ends_with('%');
    if (percent) {
        t.remove_suffix(1);
        while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    }
    double value = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    std::string shown(text.substr(0, 32));
    if (t.empty() || ec != std::errc() || end != t.data() + t.size() || !std::isfinite(value))
        throw InvalidArgumentError("load share \"" + shown + "\" is not a number like 20% or 0.2");
    if (percent || value > 1.0) value /= 100.0;
    if (!(value > 0.0 && value <= 1.0))
        throw InvalidArgumentError("load share \"" + shown +
                                   "\" must be above 0% and at most 100%");
    return value;
}

}  // namespace lockscope::inspect
