#include "explore_properties.h"

#include <algorithm>
#include <map>
#include <utility>

#include "lock_beliefs.h"

namespace lockscope::sim {

namespace {

bool interleavedChunk(const Recording& r) {
    return std::any_of(r.events.begin(), r.events.end(), [](const TimelineEvent& e) {
        return e.kind == EventKind::ChunkWritten &&
               e.detail.find("(interleaved)") != std::string::npos;
    });
}

// A client's write to a key it read earlier, after another client changed that key in
// between: the server took a write computed from an out-of-date read.
bool writeAfterStaleRead(const Recording& r) {
    std::map<std::string, int> version;                         // key → writes so far
    std::map<std::pair<LaneId, std::string>, int> readVersion;  // (client, key) → seen
    for (const TimelineEvent& e : r.events) {
        if (e.kind != EventKind::Command) continue;
        const auto mine = std::make_pair(e.lane, e.key);
        if (e.access == KeyAccess::Read) {
            readVersion[mine] = version[e.key];
        } else if (e.access == KeyAccess::Write) {
            auto seen = readVersion.find(mine);
            if (seen != readVersion.end() && seen->second != version[e.key]) return true;
            readVersion.erase(mine);  // a later write without a new read is a blind one
            ++version[e.key];
        }
    }
    return false;
}

}  // namespace

bool mutualExclusionBroken(const Recording& recording, const OutcomeSummary& outcome) {
    if (outcome.countsBeliefOverlaps) return outcome.overlappingHolds > 0;
    return beliefsOverlap(lockBeliefs(recording));
}

bool staleWriteAccepted(const Recording& r, const OutcomeSummary& outcome) {
    if (outcome.staleWritesAccepted > 0) return true;  // the report row, by write_order.h
    if (writeAfterStaleRead(r)) return true;
    // Without a store the shared file is the resource; with one, the stored report is.
    const bool hasStore = std::any_of(r.lanes.begin(), r.lanes.end(), [](const Lane& l) {
        return l.kind == LaneKind::FencedStore;
    });
    return !hasStore && interleavedChunk(r);
}

bool stuckLock(const Recording& r) {
    for (const Interval& noTtl : r.intervals) {
        // Still without a TTL when the run ended: released or expired keys are not stuck.
        if (noTtl.kind != IntervalKind::NoTtl || !noTtl.ongoing) continue;
        // The holder: the ownership of the same token on an instance lane, dead by the end.
        for (const Interval& owned : r.intervals) {
            if (owned.kind != IntervalKind::Ownership || owned.token != noTtl.token ||
                owned.from != noTtl.from)
                continue;
            const Lane* lane = r.lane(owned.lane);
            if (!lane || lane->kind != LaneKind::Instance) continue;
            for (const Interval& crash : r.intervals)
                if (crash.lane == owned.lane && crash.kind == IntervalKind::Crashed &&
                    crash.from >= noTtl.from)
                    return true;
        }
    }
    return false;
}

// "b and c" for each pair of clients whose beliefs overlapped (one server's stories; the
// multi-server stories name them in the narration of each overlapping hold).
std::vector<std::string> overlappingPairs(const Recording& recording,
                                          const OutcomeSummary& outcome) {
    std::vector<std::string> names;
    if (outcome.countsBeliefOverlaps) return names;
    for (const auto& [a, b] : overlappingBelievers(lockBeliefs(recording)))
        names.push_back(recording.lane(a)->name + " and " + recording.lane(b)->name);
    return names;
}

PropertiesBroken judgeProperties(const Recording& recording, const OutcomeSummary& outcome) {
    PropertiesBroken p;
    p.mutualExclusion = mutualExclusionBroken(recording, outcome);
    p.overlaps = overlappingPairs(recording, outcome);
    p.staleWrite = staleWriteAccepted(recording, outcome);
    p.duplicateSideEffect = outcome.emailsSent > 1 || outcome.seatsSoldTwice > 0;
    p.stuckLock = stuckLock(recording);
    return p;
}

bool breaks(const Replay& run, Property property) {
    const PropertiesBroken& p = run.outcome().broken;
    switch (property) {
        case Property::MutualExclusion:
            return p.mutualExclusion;
        case Property::StaleWriteAccepted:
            return p.staleWrite;
        case Property::DuplicateSideEffect:
            return p.duplicateSideEffect;
        case Property::StuckLock:
            return p.stuckLock;
    }
    return false;
}

}  // namespace lockscope::sim
