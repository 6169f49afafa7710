#include "lock_beliefs.h"

#include <algorithm>
#include <optional>

namespace lockscope::sim {

namespace {

bool isInstance(const Recording& r, LaneId id) {
    const Lane* lane = r.lane(id);
    return lane && lane->kind == LaneKind::Instance;
}

// The holder ended its own hold: its command closed the interval (a release, a DEL), and
// no expiry did at the same step.
bool endedByHolder(const Recording& r, const Interval& owned) {
    bool byCommand = false;
    for (const TimelineEvent& e : r.events) {
        if (e.step != owned.toStep || e.time != owned.to) continue;
        if (e.kind == EventKind::KeyExpired) return false;
        if (e.kind == EventKind::Command && e.lane == owned.lane) byCommand = true;
    }
    return byCommand;
}

// The lease as its holder measured it: the last TTL it set while it held the key.
VirtualMs leaseEnd(const Recording& r, const Interval& owned) {
    std::optional<VirtualMs> end;
    for (const TimelineEvent& e : r.events)
        if (e.kind == EventKind::Command && e.lane == owned.lane && e.ttlMs >= 0 &&
            e.step >= owned.fromStep && e.step <= owned.toStep && !e.lockOp.empty())
            end = std::max(end.value_or(0), e.time + e.ttlMs);
    return end.value_or(kForever);
}

// The holder's first command after it lost the lock, if any.
const TimelineEvent* nextCommand(const Recording& r, const Interval& owned) {
    for (const TimelineEvent& e : r.events)
        if (e.kind == EventKind::Command && e.lane == owned.lane && e.step > owned.toStep)
            return &e;
    return nullptr;
}

VirtualMs crashTime(const Recording& r, LaneId lane, VirtualMs after) {
    VirtualMs at = kForever;
    for (const Interval& i : r.intervals)
        if (i.lane == lane && i.kind == IntervalKind::Crashed && i.from >= after)
            at = std::min(at, i.from);
    return at;
}

bool lapseBandFollows(const Recording& r, const Interval& owned) {
    return std::any_of(r.intervals.begin(), r.intervals.end(), [&](const Interval& i) {
        return i.lane == owned.lane && i.kind == IntervalKind::LeaseLapsed && i.from == owned.to;
    });
}

// How long the holder of `owned` went on believing it held the lock.
VirtualMs believedUntil(const Recording& r, const Interval& owned) {
    const VirtualMs crashed = crashTime(r, owned.lane, owned.from);
    if (owned.ongoing) return crashed;
    if (endedByHolder(r, owned) || lapseBandFollows(r, owned)) return std::min(owned.to, crashed);
    VirtualMs until = std::max(owned.to, leaseEnd(r, owned));
    if (const TimelineEvent* next = nextCommand(r, owned)) {
        // A new acquire means it knew it held nothing; any other command acts as the holder.
        until = next->lockOp == std::string("acquire")
                    ? std::max(owned.to, std::min(until, next->time))
                    : std::max(until, next->time);
    }
    return std::min(until, crashed);
}

}  // namespace

std::vector<LockBelief> lockBeliefs(const Recording& r) {
    std::vector<LockBelief> beliefs;
    for (const Interval& i : r.intervals) {
        if (!isInstance(r, i.lane)) continue;
        if (i.kind == IntervalKind::Ownership)
            beliefs.push_back({i.lane, i.from, believedUntil(r, i), i.key});
        else if (i.kind == IntervalKind::LeaseLapsed)
            beliefs.push_back({i.lane, i.from, i.ongoing ? kForever : i.to, i.key});
    }
    return beliefs;
}

bool beliefsOverlap(const std::vector<LockBelief>& beliefs) {
    return !overlappingBelievers(beliefs).empty();
}

std::vector<std::pair<LaneId, LaneId>> overlappingBelievers(
    const std::vector<LockBelief>& beliefs) {
    std::vector<std::pair<LaneId, LaneId>> pairs;
    for (const LockBelief& a : beliefs)
        for (const LockBelief& b : beliefs)
            if (a.lane < b.lane && a.key == b.key &&
                std::max(a.from, b.from) < std::min(a.to, b.to))
                pairs.emplace_back(a.lane, b.lane);
    std::sort(pairs.begin(), pairs.end());
    pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
    return pairs;
}

}  // namespace lockscope::sim
