#include "lockscope/inspect/formats/holder_facts.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "inspect/formats/sorted_set_shapes.h"
#include "lockscope/inspect/value_classifier.h"

namespace lockscope::inspect {
namespace {

using std::chrono::system_clock;

// 100 ns intervals from the Gregorian reform (1582-10-15) to the Unix epoch (RFC 4122).
constexpr std::uint64_t kGregorianToUnix100ns = 0x01B21DD213814000ULL;

template <typename T>
std::optional<T> number(std::string_view s) {
    T n{};
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n, 10);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return n;
}

std::optional<std::uint64_t> hexNumber(std::string_view s) {
    std::uint64_t n = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n, 16);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
    return n;
}

void decodeShedLock(std::string_view value, HolderFacts& f) {
    // ADDED:<iso>@<host> or ADDED:<iso>@<host>:<uuid>
    auto at = value.find('@');
    if (!value.starts_with("ADDED:") || at == std::string_view::npos) return;
    f.since = parseIsoInstant(value.substr(6, at - 6));
    std::string_view host = value.substr(at + 1);
    auto colon = host.rfind(':');
    if (colon != std::string_view::npos && isDashedUuid(host.substr(colon + 1)))
        host = host.substr(0, colon);
    f.host = std::string(host);
}

void decodeRedisson(const LockRecord& r, HolderFacts& f) {
    for (const auto& field : r.fields) {
        if (field.field == "mode") {
            f.mode = field.value;
            continue;
        }
        std::string_view name = field.field;
        if (name.ends_with(":write")) name.remove_suffix(6);
        if (!isRedissonHolderField(name)) continue;
        ++f.holders;
        if (!f.clientId.empty()) continue;  // the first holder speaks for the row
        auto colon = name.rfind(':');
        f.clientId = std::string(name.substr(0, colon));
        f.threadId = number<std::uint64_t>(name.substr(colon + 1));
    }
}

system_clock::time_point fromEpochMs(std::int64_t ms) {
    return system_clock::time_point(
        std::chrono::duration_cast<system_clock::duration>(std::chrono::milliseconds(ms)));
}

// Symfony RedisStore: token -> its expiry (ms); "__write__" marks the one exclusive holder.
void decodeSymfony(const LockRecord& r, system_clock::time_point now, HolderFacts& f) {
    const bool write = std::any_of(r.fields.begin(), r.fields.end(), [](const HashField& m) {
        return m.field == formats::kSymfonyWriteMember;
    });
    f.mode = write ? "write" : "read";
    for (const auto& m : r.fields) {
        auto ms = formats::epochMsScore(m.value);
        if (m.field == formats::kSymfonyWriteMember || !ms) continue;
        f.members.push_back({m.field, fromEpochMs(*ms), write, fromEpochMs(*ms) <= now});
    }
}

// redis-semaphore Semaphore: identifier -> its last acquire or refresh (the holder's
// Date.now()). Every acquire and refresh also PEXPIREs the key to lockTimeout, so the newest
// score was written with the key's current TTL: the library's next acquire drops a member
// older than now - lockTimeout, i.e. one more than the PTTL left older than the newest
// member. Judged so, no clock of this machine is compared with the holders'.
void decodeSemaphore(const LockRecord& r, HolderFacts& f) {
    std::int64_t newest = 0;
    for (const auto& m : r.fields)
        if (auto ms = formats::epochMsScore(m.value)) newest = std::max(newest, *ms);
    for (const auto& m : r.fields) {
        auto ms = formats::epochMsScore(m.value);
        if (!ms) continue;
        const bool lapsed = r.pttlMs >= 0 && newest - *ms > r.pttlMs;
        f.members.push_back({m.field, fromEpochMs(*ms), false, lapsed});
    }
}

std::string shortId(const std::string& id) {
    return id.size() > 12 ? id.substr(0, 8) + "…" : id;
}

void describeMembers(const HolderFacts& f, std::string& out) {
    const bool symfony = !f.mode.empty();  // "read" or "write", already said
    out += (symfony ? " lock, " : "") + std::to_string(f.members.size()) +
           (f.members.size() == 1 ? " holder" : " holders");
    for (std::size_t i = 0; i < f.members.size() && i < 4; ++i) {
        const auto& m = f.members[i];
        out += (i ? ", " : ": ") + shortId(m.id) + (symfony ? " until " : " refreshed ") +
               formatIsoInstant(m.at);
        if (m.lapsed) out += symfony ? " (expired)" : " (stale: past its lock timeout)";
    }
    if (f.members.size() > 4) out += ", …";
}

}  // namespace

std::optional<system_clock::time_point> uuid1Time(std::string_view hex) {
    if (!isUuid1Hex(hex)) return std::nullopt;
    auto low = hexNumber(hex.substr(0, 8)), mid = hexNumber(hex.substr(8, 4)),
         high = hexNumber(hex.substr(13, 3));  // after the version nibble
    if (!low || !mid || !high) return std::nullopt;
    std::uint64_t ticks = (*high << 48) | (*mid << 32) | *low;
    if (ticks < kGregorianToUnix100ns) return std::nullopt;
    auto since = std::chrono::microseconds((ticks - kGregorianToUnix100ns) / 10);
    return system_clock::time_point(std::chrono::duration_cast<system_clock::duration>(since));
}

std::string uuid1Node(std::string_view hex) {
    if (!isUuid1Hex(hex)) return {};
    std::string mac;
    for (std::size_t i = 20; i < 32; i += 2) {
        if (!mac.empty()) mac += ':';
        mac.append(hex.substr(i, 2));
    }
    return mac;
}

std::optional<system_clock::time_point> parseIsoInstant(std::string_view t) {
    // yyyy-mm-ddThh:mm:ss then an optional fraction, then Z.
    if (t.size() < 20 || t[4] != '-' || t[7] != '-' || t[10] != 'T' || t[13] != ':' ||
        t[16] != ':' || t.back() != 'Z')
        return std::nullopt;
    auto y = number<int>(t.substr(0, 4));
    auto mo = number<unsigned>(t.substr(5, 2)), d = number<unsigned>(t.substr(8, 2));
    auto h = number<int>(t.substr(11, 2)), mi = number<int>(t.substr(14, 2)),
         s = number<int>(t.substr(17, 2));
    if (!y || !mo || !d || !h || !mi || !s || *h > 23 || *mi > 59 || *s > 60) return std::nullopt;
    std::chrono::year_month_day date{std::chrono::year(*y), std::chrono::month(*mo),
                                     std::chrono::day(*d)};
    if (!date.ok()) return std::nullopt;
    std::chrono::microseconds fraction{0};
    std::string_view rest = t.substr(19, t.size() - 20);
    if (!rest.empty()) {
        if (rest[0] != '.' || rest.size() < 2 || rest.size() > 10) return std::nullopt;
        std::string digits(rest.substr(1));
        digits.resize(6, '0');
        auto us = number<long>(digits);
        if (!us) return std::nullopt;
        fraction = std::chrono::microseconds(*us);
    }
    auto at = std::chrono::sys_days(date) + std::chrono::hours(*h) + std::chrono::minutes(*mi) +
              std::chrono::seconds(*s) + fraction;
    return std::chrono::time_point_cast<system_clock::duration>(at);
}

std::string formatIsoInstant(system_clock::time_point t) {
    auto seconds = std::chrono::floor<std::chrono::seconds>(t);
    auto days = std::chrono::floor<std::chrono::days>(seconds);
    std::chrono::year_month_day date(days);
    std::chrono::hh_mm_ss time(seconds - days);
    char out[32];
    std::snprintf(out, sizeof out, "%04d-%02u-%02uT%02ld:%02ld:%02lldZ", int(date.year()),
                  unsigned(date.month()), unsigned(date.day()), long(time.hours().count()),
                  long(time.minutes().count()), static_cast<long long>(time.seconds().count()));
    return out;
}

HolderFacts decodeHolder(const LockRecord& r, system_clock::time_point now) {
    HolderFacts f;
    if (r.type == ValueType::ZSet && r.kind == LockKind::SymfonyLock) decodeSymfony(r, now, f);
    if (r.type == ValueType::ZSet && r.kind == LockKind::RedisSemaphore) decodeSemaphore(r, f);
    switch (r.kind) {
        case LockKind::RedisPy:
        case LockKind::CeleryOnce:  // celery-once takes a redis-py Lock
            f.since = uuid1Time(r.token);
            f.host = uuid1Node(r.token);
            break;
        case LockKind::ShedLock:
            decodeShedLock(r.token, f);
            break;
        case LockKind::RedissonLock:
        case LockKind::RedissonReadWriteLock:
            decodeRedisson(r, f);
            break;
        case LockKind::SpringIntegration:
            f.clientId = r.token;
            break;
        case LockKind::SidekiqUniqueJobs:
            if (r.type == ValueType::Hash)
                for (const auto& field : r.fields) f.jobs.push_back(field.field);
            break;
        default:
            break;
    }
    return f;
}

std::string describeHolder(const HolderFacts& f) {
    std::string out;
    auto add = [&](const std::string& part) {
        if (!out.empty()) out += ' ';
        out += part;
    };
    if (!f.mode.empty()) add(f.mode);
    if (f.since) add("since " + formatIsoInstant(*f.since));
    if (!f.host.empty()) add("on " + f.host);
    if (!f.clientId.empty()) add("client " + f.clientId);
    if (f.threadId) add("thread " + std::to_string(*f.threadId));
    if (f.holders > 1) add("(" + std::to_string(f.holders) + " holders)");
    if (!f.jobs.empty()) {
        add("jobs");
        for (std::size_t i = 0; i < f.jobs.size() && i < 4; ++i)
            out += (i ? ", " : " ") + f.jobs[i];
        if (f.jobs.size() > 4) out += ", …";
    }
    if (!f.members.empty()) describeMembers(f, out);
    return out;
}

}  // namespace lockscope::inspect
