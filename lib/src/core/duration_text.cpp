#include "lockscope/duration_text.h"

#include <cstdio>

namespace lockscope {
namespace {

constexpr std::int64_t kSecond = 1000;
constexpr std::int64_t kMinute = 60 * kSecond;
constexpr std::int64_t kHour = 60 * kMinute;
constexpr std::int64_t kDay = 24 * kHour;

std::string printed(const char* format, auto... values) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, values...);
    return buffer;
}

// "1.5 s", "30 s", "12.25 s": the seconds with their milliseconds, trailing zeros dropped.
std::string exactSeconds(std::int64_t ms) {
    std::string s = printed("%lld.%03lld", static_cast<long long>(ms / kSecond),
                            static_cast<long long>(ms % kSecond));
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
    return s + " s";
}

std::string rounded(std::int64_t ms) {
    if (ms < 10 * kSecond) return printed("%.1f s", static_cast<double>(ms) / kSecond);
    if (ms < 2 * kMinute) return printed("%lld s", static_cast<long long>(ms / kSecond));
    if (ms < 2 * kHour)
        return printed("%lld min %02lld s", static_cast<long long>(ms / kMinute),
                       static_cast<long long>(ms % kMinute / kSecond));
    if (ms < 2 * kDay)
        return printed("%lld h %02lld min", static_cast<long long>(ms / kHour),
                       static_cast<long long>(ms % kHour / kMinute));
    return printed("%lld days", static_cast<long long>(ms / kDay));
}

}  // namespace

std::string formatDuration(std::int64_t ms, DurationPrecision precision) {
    if (ms < 0) ms = 0;  // documented as the caller's to avoid; never print "-0.3 s"
    if (ms < kSecond) return std::to_string(ms) + " ms";
    return precision == DurationPrecision::Exact ? exactSeconds(ms) : rounded(ms);
}

}  // namespace lockscope
