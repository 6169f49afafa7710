#include "sorted_set_shapes.h"

#include <algorithm>
#include <charconv>

namespace lockscope::inspect::formats {
namespace {

// Symfony 5.4 Store/RedisStore.php (read whole): save() ZADDs now+ttl for the token and for
// "__write__", saveRead() ZADDs the token and ZREMs "__write__", both PEXPIREAT the key to
// the highest score; expired members are only removed by the next acquire (ZREMRANGEBYSCORE).
// So: every member a token or "__write__", at least one token, "__write__" only beside a
// single token, scores in epoch ms, and the highest no older than the key's own expiry.

constexpr std::int64_t kDayMs = 24LL * 3600 * 1000;
// Clocks of the writer and this machine may differ; a TTL longer than a year is no lease.
constexpr std::int64_t kSkewMs = kDayMs;
constexpr std::int64_t kLongestLeaseMs = 366 * kDayMs;

bool isBase64Char(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
           c == '/';
}

}  // namespace

bool isSymfonyToken(std::string_view member) {
    // 32 bytes: 43 characters carry 258 bits, so the last one's low 2 bits are zero.
    constexpr std::string_view kLastChars = "AEIMQUYcgkosw048";
    return member.size() == 44 && member[43] == '=' &&
           std::all_of(member.begin(), member.begin() + 43, isBase64Char) &&
           kLastChars.find(member[42]) != std::string_view::npos;
}

std::optional<std::int64_t> epochMsScore(std::string_view score) {
    std::int64_t ms = 0;
    auto [end, ec] = std::from_chars(score.data(), score.data() + score.size(), ms);
    if (score.empty() || ec != std::errc() || end != score.data() + score.size()) return {};
    // 2001-09-09 .. 2286-11-20: thirteen digits; seconds (Sidekiq) and counters are fewer.
    if (ms < 1'000'000'000'000LL || ms >= 10'000'000'000'000LL) return std::nullopt;
    return ms;
}

std::optional<LockKind> zsetKindByMembers(const std::vector<HashField>& members,
                                          std::chrono::system_clock::time_point wallNow) {
    if (members.empty()) return std::nullopt;
    std::size_t tokens = 0;
    bool write = false;
    std::int64_t latest = 0;
    for (const auto& m : members) {
        auto ms = epochMsScore(m.value);
        if (!ms) return std::nullopt;
        latest = std::max(latest, *ms);
        if (m.field == kSymfonyWriteMember)
            write = true;
        else if (isSymfonyToken(m.field))
            ++tokens;
        else
            return std::nullopt;
    }
    if (tokens == 0 || (write && tokens != 1)) return std::nullopt;
    const std::int64_t now =
        std::chrono::duration_cast<std::chrono::milliseconds>(wallNow.time_since_epoch()).count();
    if (latest < now - kSkewMs || latest > now + kLongestLeaseMs) return std::nullopt;
    return LockKind::SymfonyLock;
}

}  // namespace lockscope::inspect::formats
