#include "renewal_tracker.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <string_view>

#include "lockscope/duration_text.h"
#include "lockscope/inspect/formats/holder_facts.h"

namespace lockscope::inspect::liveness {
namespace {

using std::chrono::milliseconds;

// A PTTL read this much above what the last look predicts is a renewal, not read jitter.
constexpr std::int64_t kRenewalToleranceMs = 250;

// A sorted set's holders are its members: a renewal rewrites their scores, not them.
std::size_t holderHash(const LockRecord& r) {
    std::size_t h = std::hash<std::string>{}(r.token);
    const bool scored = r.type == ValueType::ZSet;
    for (const auto& f : r.fields)
        h = h * 1'000'003u ^ std::hash<std::string>{}(f.field) ^
            (scored ? 0 : std::hash<std::string>{}(f.value) << 1);
    return h;
}

std::uint64_t keyHash(std::string_view key) {
    return std::hash<std::string_view>{}(key);
}

std::int64_t msBetween(SteadyClock::time_point from, SteadyClock::time_point to) {
    return std::chrono::duration_cast<milliseconds>(to - from).count();
}

std::string ago(std::int64_t ms) {
    return formatDuration(std::max<std::int64_t>(0, ms)) + " ago";
}

}  // namespace

WallClock::time_point wallTimeOf(SteadyClock::time_point t, SteadyClock::time_point steadyNow,
                                 WallClock::time_point wallNow) {
    return wallNow - std::chrono::duration_cast<WallClock::duration>(steadyNow - t);
}

void RenewalTracker::update(Look& look, const LockRecord& r, std::size_t holder) {
    if (look.holder != holder) {
        look = Look{};
        look.holder = holder;
        look.holderSince = r.observedAt;
    } else if (r.pttlMs >= 0 && look.pttlMs >= 0) {
        std::int64_t expected = look.pttlMs - msBetween(look.at, r.observedAt);
        if (r.pttlMs > expected + kRenewalToleranceMs) {
            // Renewed to about its lease: the renewal was about (lease - pttl) before this look,
            // and after the last one.
            std::int64_t lease = std::max(look.leaseMs, r.pttlMs);
            auto when = r.observedAt - milliseconds(std::max<std::int64_t>(0, lease - r.pttlMs));
            when = std::max(when, look.at);
            if (look.renewals++ == 0) look.firstRenewal = when;
            look.lastRenewal = when;
        }
    }
    look.pttlMs = r.pttlMs;
    look.at = r.observedAt;
    look.leaseMs = std::max(look.leaseMs, r.pttlMs);
}

std::vector<Evidence> RenewalTracker::observe(const LockRecord& r, SteadyClock::time_point now,
                                              WallClock::time_point wallNow) {
    Look unkept;
    Look& look = maxKeys_ == 0 ? unkept : lookAt(keyHash(r.key));
    update(look, r, holderHash(r));
    std::uint32_t renewals = look.renewals;
    std::optional<SteadyClock::time_point> last;
    if (look.renewals > 0) last = look.lastRenewal;
    std::int64_t lease = look.leaseMs;
    // A watcher's table counted renewals this tracker did not see (it looks less often).
    if (renewals == 0 && r.renewals > 0 && r.pttlMs >= 0) {
        renewals = r.renewals;
        lease = std::max(lease, r.leasePttlMs);
        last = r.observedAt - milliseconds(std::max<std::int64_t>(0, lease - r.pttlMs));
    }
    if (renewals == 0 || !last) return {};
    const std::int64_t sinceLast = msBetween(*last, now);
    std::optional<std::int64_t> every;
    if (look.renewals >= 2)
        every = msBetween(look.firstRenewal, look.lastRenewal) / (look.renewals - 1);
    std::vector<Evidence> out;
    Evidence alive;
    alive.pointsTo = Verdict::Alive;
    alive.seenAt = wallTimeOf(*last, now, wallNow);
    alive.since = wallTimeOf(
        std::min(look.holderSince,
                 r.lastChange == SteadyClock::time_point{} ? look.holderSince : r.lastChange),
        now, wallNow);
    alive.text = "renewed with the same token " + ago(sinceLast);
    if (every && *every > 0) alive.text += ", about every " + formatDuration(*every);
    out.push_back(alive);
    // Stopped: no renewal for twice its usual interval (or for most of the lease).
    // A holder that renews late in its lease (redis-semaphore at 80%) is not overdue until
    // a quarter interval after its usual time.
    const std::int64_t threeQuartersOfLease = std::max<std::int64_t>(lease * 3 / 4, 1000);
    std::int64_t overdue =
        every
            ? std::min(2 * *every + 1000, std::max(*every + *every / 4 + 250, threeQuartersOfLease))
            : threeQuartersOfLease;
    if (sinceLast > overdue && r.pttlMs >= 0) {
        Evidence stopped;
        stopped.warning = true;
        stopped.seenAt = wallNow;
        stopped.text = "renewals stopped: the last was " + ago(sinceLast) + " (" +
                       formatIsoInstant(alive.seenAt) + "); the TTL runs out in " +
                       formatDuration(r.remainingAt(now));
        out.push_back(stopped);
    }
    return out;
}

RenewalTracker::Look& RenewalTracker::lookAt(std::uint64_t key) {
    if (looks_.size() >= maxKeys_ && !looks_.contains(key)) looks_.clear();  // bounded memory
    return looks_[key];
}

bool RenewalTracker::renewed(const std::string& key) const {
    auto it = looks_.find(keyHash(key));
    return it != looks_.end() && it->second.renewals > 0;
}

}  // namespace lockscope::inspect::liveness
