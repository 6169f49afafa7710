// lockHistory: the rules that turn a run's recorded commands into Jepsen operations
// (jepsen_history.h states them). Each rule reads what the simulator recorded; none
// guesses an outcome the run did not produce.
#include <algorithm>
#include <optional>
#include <sstream>

#include "lockscope/sim/jepsen_history.h"

namespace lockscope::sim {

namespace {

bool replySucceeded(const std::string& reply) {
    if (reply == "OK") return true;
    const std::string prefix = "(integer) ";
    if (reply.starts_with(prefix))
        return reply.size() > prefix.size() && reply.substr(prefix.size()) != "0";
    return false;
}

bool isLockCommand(const TimelineEvent& e) {
    return e.kind == EventKind::Command && (e.lockOp == "acquire" || e.lockOp == "release");
}

// One operation: a lock command and the same kind the same actor sent in the same step
// (a Redlock client's round to every node).
struct Round {
    std::size_t first = 0, last = 0;
    int sent = 0, granted = 0;
    bool unanswered = false;  // a node's reply never came in time: it may have run it
};

Round roundAt(const std::vector<TimelineEvent>& events, std::size_t i) {
    const TimelineEvent& first = events[i];
    Round round{i, i};
    for (std::size_t j = i; j < events.size() && events[j].step == first.step; ++j) {
        const TimelineEvent& e = events[j];
        if (e.kind != EventKind::Command || e.lane != first.lane) continue;
        if (e.lockOp != first.lockOp || e.key != first.key) break;
        round.last = j;
        // NOSCRIPT is answered before the script runs; the client's EVAL is the attempt.
        if (e.reply.starts_with("(error) NOSCRIPT")) continue;
        ++round.sent;
        round.granted += replySucceeded(e.reply);
        round.unanswered = round.unanswered || e.reply == "(timeout)";
    }
    return round;
}

bool granted(const Round& r) {
    return r.sent <= 1 ? r.granted == 1 : r.granted * 2 > r.sent;
}

// The first thing the actor's lane records after the round's step, pauses aside (a frozen
// client learns nothing until it runs again).
const TimelineEvent* nextOnLane(const std::vector<TimelineEvent>& events, const Round& r) {
    const TimelineEvent& sent = events[r.first];
    for (std::size_t j = r.last + 1; j < events.size(); ++j) {
        const TimelineEvent& e = events[j];
        if (e.lane != sent.lane || e.step == sent.step) continue;
        if (e.kind == EventKind::PauseStarted || e.kind == EventKind::PauseEnded) continue;
        return &e;
    }
    return nullptr;
}

// WAIT numreplicas timeout answered with fewer replicas than asked for.
bool waitCameBackShort(const TimelineEvent& wait) {
    std::istringstream words(wait.command.substr(wait.command.find("WAIT")));
    std::string verb;
    long long asked = 0, acknowledged = 0;
    words >> verb >> asked;
    std::istringstream reply(wait.reply);
    std::string integer;
    reply >> integer >> acknowledged;
    return acknowledged < asked;
}

bool isWait(const TimelineEvent& e) {
    return e.kind == EventKind::Command && e.command.find("WAIT ") != std::string::npos;
}

struct Completion {
    HistoryType type = HistoryType::Ok;
    VirtualMs time = 0;
};

Completion completionOf(const std::vector<TimelineEvent>& events, const Round& r) {
    const TimelineEvent& sent = events[r.first];
    const HistoryType known = granted(r)     ? HistoryType::Ok
                              : r.unanswered ? HistoryType::Info
                                             : HistoryType::Fail;
    const bool acquire = sent.lockOp == "acquire";
    const bool redlockRound = r.sent > 1 || r.unanswered;
    const TimelineEvent* next = acquire ? nextOnLane(events, r) : nullptr;
    const bool waits = next && isWait(*next);
    if (!acquire || (!redlockRound && !waits)) return {known, events[r.last].time};
    if (!next) return {HistoryType::Info, events.back().time};  // the run ended first
    if (next->kind == EventKind::Crashed) return {HistoryType::Info, next->time};
    if (waits && known == HistoryType::Ok && waitCameBackShort(*next))
        return {HistoryType::Info, next->time};
    return {known, next->time};
}

// The process of the holder whose ownership this operator's release ended, or -1.
int ownerReleased(const Recording& recording, const TimelineEvent& release,
                  const std::vector<int>& processOfLane) {
    for (const Interval& i : recording.intervals) {
        if (i.kind != IntervalKind::Ownership || i.toStep != release.step || i.key != release.key)
            continue;
        const Lane* holder = recording.laneNamed(i.holder);
        if (holder && holder->id != release.lane && processOfLane[holder->id] >= 0)
            return processOfLane[holder->id];
    }
    return -1;
}

// Instances first, in lane order, then operators: a story without an operator keeps the
// numbers it always had.
std::vector<int> processesOf(const Recording& recording) {
    std::vector<int> processOfLane(recording.lanes.size(), -1);
    int processes = 0;
    for (LaneKind kind : {LaneKind::Instance, LaneKind::Operator})
        for (const Lane& lane : recording.lanes)
            if (lane.kind == kind) processOfLane[lane.id] = processes++;
    return processOfLane;
}

}  // namespace

std::vector<HistoryOp> lockHistory(const Recording& recording) {
    std::vector<HistoryOp> history;
    const std::vector<int> processOfLane = processesOf(recording);
    const auto& events = recording.events;
    for (std::size_t i = 0; i < events.size(); ++i) {
        const TimelineEvent& first = events[i];
        if (!isLockCommand(first) || first.lane < 0 ||
            first.lane >= static_cast<LaneId>(processOfLane.size()) ||
            processOfLane[first.lane] < 0)
            continue;
        const Round round = roundAt(events, i);
        const Completion done = completionOf(events, round);
        const Lane& lane = recording.lanes[first.lane];
        const int owner = lane.kind == LaneKind::Operator && first.lockOp == "release"
                              ? ownerReleased(recording, events[round.last], processOfLane)
                              : -1;
        const int process = processOfLane[first.lane];
        history.push_back({HistoryType::Invoke, process, first.lockOp, first.time * 1'000'000, 0,
                           first.key, lane.name, owner});
        history.push_back({done.type, process, first.lockOp, done.time * 1'000'000, 0, first.key,
                           lane.name, owner});
        // Skip the commands folded into this operation.
        for (std::size_t j = i + 1; j <= round.last; ++j)
            if (events[j].lane == first.lane && isLockCommand(events[j])) i = j;
    }
    // Completions that come later than the next invoke go to their place in time.
    std::stable_sort(history.begin(), history.end(),
                     [](const HistoryOp& a, const HistoryOp& b) { return a.timeNs < b.timeNs; });
    for (std::size_t i = 0; i < history.size(); ++i) history[i].index = static_cast<int>(i);
    return history;
}

}  // namespace lockscope::sim
