#include "lockscope/sim/simulator.h"

#include <algorithm>
#include <tuple>

#include "clock_jump.h"
#include "explore_properties.h"
#include "lockscope/sim/step_context.h"
#include "replication.h"
#include "wait_for_replicas.h"

namespace lockscope::sim {

namespace {

enum class DueKind {
    PauseStart,
    PauseEnd,
    Crash,
    Failover,
    ClockJump,
    Expiry,
    Replicate,
    WaitTimeout,
    ActorWake
};

// What runs next. At the same millisecond expiries come first (a key is gone from the
// millisecond after its deadline on, as in Redis 7, so nothing at t may still see it), then faults
// (a pause or crash at t stops the actor's step at t), then replication and WAIT deadlines, then
// actors in the order they scheduled themselves.
struct Due {
    VirtualMs time = 0;
    int priority = 0;
    std::uint64_t order = 0;
    DueKind kind = DueKind::ActorWake;
    std::size_t index = 0;

    auto key() const { return std::tie(time, priority, order); }
};

void consider(std::optional<Due>& best, const Due& d) {
    if (!best || d.key() < best->key()) best = d;
}

std::optional<Due> nextDue(const World& world) {
    std::optional<Due> best;
    const FaultPlan& f = world.faults;
    for (std::size_t i = 0; i < f.pauses.size(); ++i) {
        const PauseFault& p = f.pauses[i];
        if (!p.startAnnounced)
            consider(best, {p.from, 1, i, DueKind::PauseStart, i});
        else if (!p.endAnnounced)
            consider(best, {p.to, 1, i, DueKind::PauseEnd, i});
    }
    for (std::size_t i = 0; i < f.crashes.size(); ++i)
        if (!f.crashes[i].announced)
            consider(best, {f.crashes[i].at, 1, f.pauses.size() + i, DueKind::Crash, i});
    for (std::size_t i = 0; i < f.failovers.size(); ++i)
        if (!f.failovers[i].announced)
            consider(best, {f.failovers[i].at, 1, f.pauses.size() + f.crashes.size() + i,
                            DueKind::Failover, i});
    const std::size_t faultCount = f.pauses.size() + f.crashes.size() + f.failovers.size();
    for (std::size_t i = 0; i < f.clockJumps.size(); ++i)
        if (!f.clockJumps[i].announced)
            consider(best, {f.clockJumps[i].at, 1, faultCount + i, DueKind::ClockJump, i});
    for (std::size_t i = 0; i < world.inFlight.size(); ++i)
        consider(best,
                 {world.inFlight[i].deliverAt, 2, world.inFlight[i].seq, DueKind::Replicate, i});
    for (std::size_t n = 0; n < world.nodes.size(); ++n)
        if (auto deadline = world.nodes[n].redis.nextDeadline())
            // A clock jump can put a deadline in the past: the key expires at once.
            consider(best, {std::max(*deadline, world.now), 0, n, DueKind::Expiry, n});
    if (auto deadline = nextWaitDeadline(world))
        consider(best, {*deadline, 2, 0, DueKind::WaitTimeout, 0});
    for (std::size_t i = 0; i < world.actors.size(); ++i) {
        const Actor& a = *world.actors[i];
        if (a.crashed || !a.wake) continue;
        VirtualMs at = f.effectiveWake(a.name(), *a.wake, a.workFrom);
        if (auto crash = f.crashTime(a.name()); crash && *crash <= at) continue;
        consider(best, {at, 3, a.wakeSeq, DueKind::ActorWake, i});
    }
    return best;
}

struct Announcer {
    World& world;
    Recording& recording;

    int event(EventKind kind, LaneId lane, const std::string& actor, const std::string& detail) {
        return recordEvent(world, recording, kind, lane, actor, detail);
    }
    void beat(int eventIndex, const std::string& narration) {
        recordBeat(recording, eventIndex, narration);
    }
    std::string lockFacts(const std::string& actor) {
        if (world.nodes.size() > 1) return keysFacts(actor);
        const Holding* h = world.currentHolding();
        if (!h || h->holder != actor) return {};
        const std::int64_t left = world.redis().pttl(world.lockKey, world.now);
        if (left == -2)
            return " Its lock " + world.lockKey + " has just run out: " + describePttl(left) + ".";
        return " It holds " + world.lockKey + " with " + describePttl(left) + ".";
    }

    // Several servers: on how many the actor's key sits, whatever the actor believes.
    std::string keysFacts(const std::string& actor) {
        int held = 0;
        std::int64_t left = 0;
        for (std::size_t n = 0; n < world.nodes.size(); ++n) {
            const Holding* h = world.currentHolding(static_cast<int>(n));
            if (!h || h->holder != actor) continue;
            ++held;
            left = std::max(left, world.nodes[n].redis.pttl(world.lockKey, world.now));
        }
        if (held == 0) return {};
        return " Its key is set on " + std::to_string(held) + " of " +
               std::to_string(world.nodes.size()) + " nodes (" + describePttl(left) + ").";
    }

    void pauseStart(PauseFault& p) {
        p.startAnnounced = true;
        const Actor* a = world.actor(p.actor);
        if (!a || a->crashed) {
            p.endAnnounced = true;
            return;
        }
        openInterval(world, {a->lane(), IntervalKind::Pause, world.now, 0, p.reason, "", 0, false});
        beat(event(EventKind::PauseStarted, a->lane(), p.actor, p.reason),
             p.actor + " is frozen by a " + p.reason + " for " + formatDuration(p.to - p.from) +
                 " (until " + formatVirtualTime(p.to) + "). The process cannot notice." +
                 lockFacts(p.actor));
    }
    void pauseEnd(PauseFault& p) {
        p.endAnnounced = true;
        const Actor* a = world.actor(p.actor);
        if (!a || a->crashed) return;
        closeInterval(world, recording, a->lane(), IntervalKind::Pause, world.now);
        // Pauses may overlap: while another still holds the actor, it does not resume.
        const VirtualMs frozenUntil = world.faults.effectiveWake(p.actor, world.now);
        if (frozenUntil > world.now) {
            beat(event(EventKind::Note, a->lane(), p.actor, "still frozen"),
                 p.actor + "'s " + p.reason + " of " + formatDuration(p.to - p.from) +
                     " ends, but another pause keeps it frozen until " +
                     formatVirtualTime(frozenUntil) + ".");
            return;
        }
        std::string facts;
        const Holding* mine = world.lastHoldingOf(p.actor);
        if (mine && !mine->current && mine->lostAt >= p.from)
            facts = " Meanwhile its lock " + describeLoss(*mine) + ".";
        beat(event(EventKind::PauseEnded, a->lane(), p.actor, "resumes"),
             p.actor + " resumes after " + formatDuration(p.to - p.from) +
                 " and carries on as if no time had passed." + facts);
    }
    void crash(CrashFault& c) {
        c.announced = true;
        Actor* a = world.actor(c.actor);
        if (!a || a->crashed) return;
        a->crashed = true;
        a->wake.reset();
        if (InstanceRun* run = world.run(c.actor); run && run->state == RunState::Running) {
            run->state = RunState::Crashed;
            ++world.outcome.runsCrashed;
            closeInterval(world, recording, a->lane(), IntervalKind::JobRun, world.now);
            closeInterval(world, recording, a->lane(), IntervalKind::LeaseLapsed, world.now);
        }
        openInterval(world,
                     {a->lane(), IntervalKind::Crashed, world.now, 0, "crashed", "", 0, false});
        beat(event(EventKind::Crashed, a->lane(), c.actor, "process killed"),
             c.actor + " crashes (the process is killed)." + lockFacts(c.actor));
    }
    void expiry(int n) {
        RedisNode& node = world.node(n);
        for (const std::string& key : node.redis.expireDue(world.now)) {
            if (!world.recordsHolders(key)) {
                // No one holds it: no beat.
                event(EventKind::KeyExpired, node.keyLane, node.name, key + " expired");
                recordLockLost(world, recording, n, key, "expired");
                continue;
            }
            const Holding* h = node.currentHolding(key);
            std::string narration = key + " expired: its TTL ran out.";
            if (h) {
                const InstanceRun* run = world.run(h->holder);
                bool working = run && run->state == RunState::Running;
                narration = key + " expired: " + h->holder + "'s lease ran out" +
                            (working ? " while its job is still running. From now on " + h->holder +
                                           " works without the lock."
                                     : ".");
            }
            recordLockLost(world, recording, n, key, "expired");
            beat(event(EventKind::KeyExpired, node.keyLane, node.name, key + " expired"),
                 narration);
        }
    }
};

void pushSample(Recording& recording, PttlSample s) {
    for (auto it = recording.pttl.rbegin(); it != recording.pttl.rend(); ++it) {
        if (it->node != s.node) continue;
        if (it->time == s.time && it->pttl == s.pttl) return;  // nothing new
        break;
    }
    recording.pttl.push_back(s);
}

// The lock key's PTTL on every node at time t.
void samplePttl(const World& world, Recording& recording, VirtualMs t, int step) {
    if (world.lockKey.empty()) return;
    for (std::size_t n = 0; n < world.nodes.size(); ++n)
        pushSample(recording,
                   {t, world.nodes[n].redis.pttl(world.lockKey, t), static_cast<int>(n), step});
}

}  // namespace

std::optional<VirtualMs> Simulator::nextTime(const World& world) {
    if (auto due = nextDue(world)) return due->time;
    return std::nullopt;
}

bool Simulator::advance(World& world, Recording& recording, const LiveBackends& live) {
    std::optional<Due> due = nextDue(world);
    if (!due || due->time > kHorizon) return false;
    if (live.beforeStep) live.beforeStep(due->time);
    if (due->kind == DueKind::Expiry && !world.lockKey.empty()) {
        // The curve reaches 0 at the deadline, the last millisecond the key exists.
        const int n = static_cast<int>(due->index);
        auto e = world.node(n).redis.peek(world.lockKey, due->time - 1);
        // Stamped with the step about to run: it is that step's "just before".
        if (e && e->deadline && *e->deadline + 1 == due->time)
            pushSample(recording, {*e->deadline, 0, n, world.steps + 1});
    } else {
        samplePttl(world, recording, due->time, world.steps + 1);  // a renewal shows as a jump
    }
    world.now = due->time;
    ++world.steps;
    Announcer announce{world, recording};
    switch (due->kind) {
        case DueKind::PauseStart:
            announce.pauseStart(world.faults.pauses[due->index]);
            break;
        case DueKind::PauseEnd:
            announce.pauseEnd(world.faults.pauses[due->index]);
            break;
        case DueKind::Crash:
            announce.crash(world.faults.crashes[due->index]);
            break;
        case DueKind::Failover: {
            const int old = world.primary;
            performFailover(world, recording, world.faults.failovers[due->index]);
            if (live.servers) live.servers->failedOver(world, old);
            break;
        }
        case DueKind::Replicate:
            deliverReplicatedWrite(world, recording, due->index);
            break;
        case DueKind::ClockJump:
            performClockJump(world, recording, world.faults.clockJumps[due->index]);
            if (live.servers) live.servers->clockJumped(world, world.faults.clockJumps[due->index]);
            break;
        case DueKind::WaitTimeout:
            expireWaits(world, recording);
            break;
        case DueKind::Expiry:
            announce.expiry(static_cast<int>(due->index));
            break;
        case DueKind::ActorWake: {
            Actor& actor = *world.actors[due->index];
            actor.wake.reset();
            StepContext context(world, recording, live, actor);
            actor.step(context);
            break;
        }
    }
    samplePttl(world, recording, world.now, world.steps);
    if (live.servers) live.servers->stepDone(world);
    return true;
}

void Simulator::runToEnd(World& world, Recording& recording, const LiveBackends& live) {
    while (advance(world, recording, live)) {
    }
    finish(world, recording);
}

void Simulator::finish(World& world, Recording& recording) {
    for (Interval interval : world.openIntervals) {
        interval.to = world.now;
        interval.ongoing = true;
        recording.intervals.push_back(interval);
    }
    world.openIntervals.clear();
    world.outcome.broken = judgeProperties(recording, world.outcome);
}

}  // namespace lockscope::sim
