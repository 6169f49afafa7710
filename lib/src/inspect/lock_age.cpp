#include "lockscope/inspect/lock_age.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <ctime>
#include <string>

namespace lockscope::inspect {
namespace {

using std::chrono::duration_cast;
using std::chrono::milliseconds;

// 100 ns intervals between the UUID epoch (1582-10-15) and the Unix epoch.
constexpr std::uint64_t kUuidEpochOffset = 0x01B21DD213814000ULL;
// Tokens claiming a time this far in the future (or before 2000) are not timestamps.
constexpr auto kFutureSlack = std::chrono::minutes(5);
constexpr std::int64_t kYear2000 = 946684800;
// PTTL readings differ by the time between polls: a lease this close to the first PTTL
// says nothing about time lived before.
constexpr std::int64_t kAgeSlackMs = 250;

std::optional<std::uint64_t> hexValue(std::string_view s) {
    std::uint64_t v = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
    if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return v;
}

std::optional<WallClock::time_point> uuid1Time(std::string_view token) {
    std::string hex;
    if (token.size() == 36) {
        if (token[8] != '-' || token[13] != '-' || token[18] != '-' || token[23] != '-')
            return std::nullopt;
        for (char c : token)
            if (c != '-') hex.push_back(c);
    } else if (token.size() == 32) {
        hex.assign(token);
    } else {
        return std::nullopt;
    }
    if (hex.size() != 32 || hex[12] != '1') return std::nullopt;  // version nibble 1
    auto low = hexValue(std::string_view(hex).substr(0, 8));
    auto mid = hexValue(std::string_view(hex).substr(8, 4));
    auto high = hexValue(std::string_view(hex).substr(13, 3));
    auto rest = hexValue(std::string_view(hex).substr(16));
    if (!low || !mid || !high || !rest) return std::nullopt;
    std::uint64_t ticks = (*high << 48) | (*mid << 32) | *low;
    if (ticks < kUuidEpochOffset) return std::nullopt;
    auto since = std::chrono::microseconds((ticks - kUuidEpochOffset) / 10);
    return WallClock::time_point(duration_cast<WallClock::duration>(since));
}

int digits(std::string_view s, std::size_t at, std::size_t n) {
    if (at + n > s.size()) return -1;
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
        if (!std::isdigit(static_cast<unsigned char>(s[i]))) return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

std::optional<WallClock::time_point> shedlockTime(std::string_view token) {
    constexpr std::string_view kPrefix = "ADDED:";
    if (!token.starts_with(kPrefix)) return std::nullopt;
    std::string_view t = token.substr(kPrefix.size());
    // yyyy-mm-ddThh:mm:ss
    if (t.size() < 20 || t[4] != '-' || t[7] != '-' || (t[10] != 'T' && t[10] != ' ') ||
        t[13] != ':' || t[16] != ':')
        return std::nullopt;
    std::tm tm{};
    tm.tm_year = digits(t, 0, 4) - 1900;
    tm.tm_mon = digits(t, 5, 2) - 1;
    tm.tm_mday = digits(t, 8, 2);
    tm.tm_hour = digits(t, 11, 2);
    tm.tm_min = digits(t, 14, 2);
    tm.tm_sec = digits(t, 17, 2);
    if (tm.tm_year < 0 || tm.tm_mon < 0 || tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 ||
        tm.tm_hour < 0 || tm.tm_hour > 23 || tm.tm_min < 0 || tm.tm_min > 59 || tm.tm_sec < 0 ||
        tm.tm_sec > 60)
        return std::nullopt;
    std::size_t at = 19;
    std::int64_t fractionMs = 0;
    if (at < t.size() && t[at] == '.') {
        int scale = 100;
        for (++at; at < t.size() && std::isdigit(static_cast<unsigned char>(t[at])); ++at) {
            fractionMs += std::int64_t{t[at] - '0'} * scale;
            scale /= 10;
        }
    }
    std::int64_t offsetS = 0;
    if (at < t.size() && t[at] == 'Z') {
        ++at;
    } else if (at < t.size() && (t[at] == '+' || t[at] == '-')) {
        int sign = t[at] == '-' ? -1 : 1;
        int hh = digits(t, at + 1, 2);
        bool colon = at + 3 < t.size() && t[at + 3] == ':';
        int mm = digits(t, at + (colon ? 4 : 3), 2);
        if (hh < 0 || mm < 0) return std::nullopt;
        offsetS = sign * (std::int64_t{hh} * 3600 + std::int64_t{mm} * 60);
        at += colon ? 6 : 5;
    } else {
        return std::nullopt;  // no zone: the time cannot be placed
    }
    if (at >= t.size() || t[at] != '@') return std::nullopt;
    std::time_t utc = timegm(&tm);
    if (utc == std::time_t(-1)) return std::nullopt;
    return WallClock::time_point(std::chrono::seconds(std::int64_t(utc) - offsetS) +
                                 milliseconds(fractionMs));
}

}  // namespace

const char* toString(AgeSource source) {
    switch (source) {
        case AgeSource::TokenTimestamp:
            return "acquire time in the token";
        case AgeSource::AcquireSeen:
            return "acquire seen by LockScope";
        case AgeSource::LeaseMinusTtl:
            return "lease length seen minus the TTL when first seen";
        case AgeSource::Unknown:
            break;
    }
    return "unknown";
}

std::optional<WallClock::time_point> acquireTimeInToken(std::string_view token) {
    if (auto t = uuid1Time(token)) return t;
    return shedlockTime(token);
}

namespace {

// Whether the token's time can be believed: a random 32-hex token (the guide's,
// node-redlock's) has the version nibble 1 one time in sixteen and would read as a uuid1
// from any year. Only a token the classifier took for a uuid1 (redis-py) or a dashed UUID
// is read as one; ShedLock's "ADDED:" prefix is specific enough on its own.
bool tokenTimeTrusted(const LockRecord& r) {
    if (r.token.starts_with("ADDED:")) return true;
    return r.kind == LockKind::RedisPy || r.kind == LockKind::Uuid;
}

}  // namespace

LockAge estimateAge(const LockRecord& r, SteadyClock::time_point now,
                    WallClock::time_point wallNow) {
    if (r.fields.empty() && tokenTimeTrusted(r)) {
        if (auto acquired = acquireTimeInToken(r.token)) {
            auto seconds = duration_cast<std::chrono::seconds>(acquired->time_since_epoch());
            if (*acquired <= wallNow + kFutureSlack && seconds.count() >= kYear2000)
                return {AgeSource::TokenTimestamp,
                        std::max<std::int64_t>(
                            0, duration_cast<milliseconds>(wallNow - *acquired).count())};
        }
    }
    const std::int64_t seen =
        std::max<std::int64_t>(0, duration_cast<milliseconds>(now - r.lastChange).count());
    // A holder change, or a key that appeared while watching: its acquire was seen.
    if (r.handoffs > 0 || r.appearedWhileWatching) return {AgeSource::AcquireSeen, seen};
    // The lease: the largest PTTL the key was ever seen with. When the holder was first seen
    // with less than that, it had already lived the difference (if every set uses one lease).
    if (r.firstPttlMs >= 0 && r.leasePttlMs > r.firstPttlMs + kAgeSlackMs)
        return {AgeSource::LeaseMinusTtl, r.leasePttlMs - r.firstPttlMs + seen};
    return {};
}

}  // namespace lockscope::inspect
