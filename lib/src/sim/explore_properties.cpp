#include "explore_properties.h"

#include <algorithm>
#include <map>
#include <utility>

#include "lock_beliefs.h"

namespace lockscope::sim {

namespace {

// When an actor was last granted the lock at or before t (-1: never).
VirtualMs lastGrant(const Recording& r, const std::string& actor, VirtualMs t) {
    VirtualMs latest = -1;
    for (const Interval& i : r.intervals) {
        const Lane* lane = r.lane(i.lane);
        if (lane && lane->kind == LaneKind::Instance && lane->name == actor &&
            i.kind == IntervalKind::Ownership && i.from <= t)
            latest = std::max(latest, i.from);
    }
    return latest;
}

bool interleavedChunk(const Recording& r) {
    return std::any_of(r.events.begin(), r.events.end(), [](const TimelineEvent& e) {
        return e.kind == EventKind::ChunkWritten &&
               e.detail.find("(interleaved)") != std::string::npos;
    });
}

// With fences the store refuses a lower fence than one it took; without, a save over the
// report of a later holder is the stale write.
bool staleStoreWrite(const Recording& r) {
    std::int64_t highestFence = 0;
    std::string lastWriter;
    for (const TimelineEvent& e : r.events) {
        if (e.kind != EventKind::FencedWriteAccepted) continue;
        if (e.detail.rfind("fence ", 0) == 0) {
            const std::int64_t fence = std::stoll(e.detail.substr(6));
            if (fence < highestFence) return true;
            highestFence = std::max(highestFence, fence);
        } else if (e.detail == "no fence" && !lastWriter.empty() && lastWriter != e.actor &&
                   lastGrant(r, lastWriter, e.time) > lastGrant(r, e.actor, e.time)) {
            return true;
        }
        lastWriter = e.actor;
    }
    return false;
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

bool mutualExclusionBroken(const Replay& run) {
    if (run.outcome().distributedStory) return run.outcome().overlappingHolds > 0;
    return beliefsOverlap(lockBeliefs(run.recording()));
}

bool staleWriteAccepted(const Recording& r) {
    const bool hasStore = std::any_of(r.lanes.begin(), r.lanes.end(), [](const Lane& l) {
        return l.kind == LaneKind::FencedStore;
    });
    if (writeAfterStaleRead(r)) return true;
    return hasStore ? staleStoreWrite(r) : interleavedChunk(r);
}

bool stuckLock(const Recording& r) {
    for (const Interval& noTtl : r.intervals) {
        if (noTtl.kind != IntervalKind::NoTtl) continue;
        const VirtualMs end = noTtl.ongoing ? kForever : noTtl.to;
        // The holder: the ownership of the same token on an instance lane.
        for (const Interval& owned : r.intervals) {
            if (owned.kind != IntervalKind::Ownership || owned.token != noTtl.token ||
                owned.from != noTtl.from)
                continue;
            const Lane* lane = r.lane(owned.lane);
            if (!lane || lane->kind != LaneKind::Instance) continue;
            for (const Interval& crash : r.intervals)
                if (crash.lane == owned.lane && crash.kind == IntervalKind::Crashed &&
                    crash.from >= noTtl.from && crash.from < end)
                    return true;
        }
    }
    return false;
}

bool breaks(const Replay& run, Property property) {
    const OutcomeSummary& o = run.outcome();
    switch (property) {
        case Property::MutualExclusion:
            return mutualExclusionBroken(run);
        case Property::StaleWriteAccepted:
            return staleWriteAccepted(run.recording());
        case Property::DuplicateSideEffect:
            return o.emailsSent > 1 || o.seatsSoldTwice > 0;
        case Property::StuckLock:
            return stuckLock(run.recording());
    }
    return false;
}

}  // namespace lockscope::sim
